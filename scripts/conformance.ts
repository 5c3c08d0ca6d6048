/**
 * `npm run conformance -- --base-url URL [--key-header NAME] [--collection-id pay_…] [--provider-id prv_…] [--json]`
 * with the key in CONFORMANCE_API_KEY (never on the command line, so it stays out of shell history and `ps`).
 * Read-only, at most 60 requests, 200 ms apart. Exit 0 when the upstream conforms, 1 when it does not, 2 on
 * a usage error. See lib/conformance/check.ts for the rules.
 */
import { parseArgs } from 'node:util';
import { formatReport, runConformance } from '../lib/conformance/check';

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    'key-header': { type: 'string' },
    'collection-id': { type: 'string' },
    'provider-id': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const key = process.env.CONFORMANCE_API_KEY;
if (!values['base-url'] || !key) {
  console.error(
    'usage: CONFORMANCE_API_KEY=<key> npm run conformance -- --base-url <url> [--key-header <name>] [--collection-id pay_…] [--provider-id prv_…] [--json]',
  );
  process.exit(2);
}
const report = await runConformance({
  baseUrl: values['base-url'],
  key,
  keyHeader: values['key-header'],
  collectionId: values['collection-id'],
  providerId: values['provider-id'],
});
console.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report));
process.exit(report.ok ? 0 : 1);
