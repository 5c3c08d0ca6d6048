import { existsSync, readFileSync } from 'node:fs';
import { E2E, SANDBOX_KEYS } from './env';

/**
 * After the whole run: the dashboards' own log output (every line they wrote
 * while the suite drove them) must not contain a key. Failing here fails the run.
 */
export default function globalTeardown() {
  for (const file of [E2E.serverLog, E2E.serverLog.replace('.log', '-gated.log')]) {
    if (!existsSync(file)) throw new Error(`Expected the dashboard log at ${file}`);
    const log = readFileSync(file, 'utf8');
    if (!log.includes('"msg"'))
      throw new Error(`The dashboard log ${file} has no structured lines: the scan would prove nothing`);
    for (const key of SANDBOX_KEYS) {
      if (log.includes(key)) throw new Error(`The API key ${key.slice(0, 6)}… appears in the dashboard log ${file}`);
    }
  }
}
