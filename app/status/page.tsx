import type { Metadata } from 'next';
import { unauthorized } from 'next/navigation';
import pkg from '@/package.json';
import { DateTime } from '@/components/ui/date-time';
import { requestContext } from '@/lib/server/context';
import { readiness } from '@/lib/server/reads/readiness';
import { runtime } from '@/lib/server/runtime';
import { PlainTable } from '@/components/ui/plain-table';
import { indexedCount } from '@/components/search-index/freshness';

export const metadata: Metadata = { title: 'Status' };

const nf = new Intl.NumberFormat('en');
const card = 'rounded-lg border border-zinc-200 p-4 dark:border-zinc-800';
const term = 'text-zinc-600 dark:text-zinc-400';

/**
 * `/status` (gated): what the engineer on call checks first. The upstream's
 * health and the last five minutes of reads, the index, the schema-drift
 * report, and which build is running.
 */
export default async function StatusPage() {
  await requestContext().catch(() => unauthorized());
  const [ready, index, drift] = await Promise.all([readiness(), runtime().index.status(), runtime().drift.report()]);
  const window = runtime().metrics.upstreamWindow();
  const { store, syncing } = runtime().index.whereAndWho();
  const check = (name: 'upstream' | 'index') => ready.checks.find((c) => c.name === name)!.ok;
  const failed = Object.entries(window.outcomes).filter(([o]) => o !== 'ok');
  const failures = failed.reduce((n, [, c]) => n + c, 0);
  const keyRejected = (window.outcomes.upstream_auth ?? 0) > 0;

  return (
    <>
      <h1 className="mb-4 text-xl font-semibold tracking-tight">Status</h1>
      <div className="mb-6 grid gap-4 md:grid-cols-3">
        <section aria-labelledby="upstream" className={card}>
          <h2 id="upstream" className="mb-2 font-semibold">
            Upstream
          </h2>
          <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className={term}>Reachable</dt>
            <dd>{check('upstream') ? 'Yes' : 'No: the last readiness read failed'}</dd>
            <dt className={term}>API key</dt>
            <dd>{keyRejected ? 'Rejected in the last 5 minutes (check API_KEY)' : 'Accepted'}</dd>
            <dt className={term}>Reads, last 5 min</dt>
            <dd className="tabular-nums">{nf.format(window.reads)}</dd>
            <dt className={term}>Latency p50 / p95</dt>
            <dd className="tabular-nums">
              {window.p50Ms === null ? '—' : `${Math.round(window.p50Ms)} / ${Math.round(window.p95Ms!)} ms`}
            </dd>
            <dt className={term}>Errors</dt>
            <dd>
              {failures === 0
                ? 'None'
                : `${((failures / window.reads) * 100).toFixed(1)} %: ${failed.map(([o, c]) => `${o} ${c}`).join(', ')}`}
            </dd>
          </dl>
        </section>
        <section aria-labelledby="index" className={card}>
          <h2 id="index" className="mb-2 font-semibold">
            Search index
          </h2>
          <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className={term}>State</dt>
            <dd>
              {index.state}
              {check('index') ? '' : ' (failing)'}
            </dd>
            <dt className={term}>Rows</dt>
            <dd className="tabular-nums">{indexedCount(index)}</dd>
            <dt className={term}>As of</dt>
            <dd>{index.asOf ? <DateTime iso={index.asOf} seconds /> : 'never'}</dd>
            <dt className={term}>Stored in</dt>
            <dd className="break-all">{store}</dd>
            <dt className={term}>Sync</dt>
            <dd>
              {syncing === null
                ? (index.reason ?? 'Not running')
                : syncing
                  ? 'Run by this dashboard'
                  : 'Run by another replica (this one answers reads)'}
            </dd>
          </dl>
        </section>
        <section aria-labelledby="build" className={card}>
          <h2 id="build" className="mb-2 font-semibold">
            This dashboard
          </h2>
          <dl className="grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className={term}>Version</dt>
            <dd>{pkg.version}</dd>
            <dt className={term}>Built</dt>
            <dd>{process.env.BUILD_TIME ? <DateTime iso={process.env.BUILD_TIME} seconds /> : 'unknown'}</dd>
          </dl>
        </section>
      </div>
      <section aria-labelledby="drift">
        <h2 id="drift" className="mb-1 font-semibold">
          Schema drift
        </h2>
        <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">
          Fields the seed does not describe and values of its open sets it does not name, as the upstream sends them.
        </p>
        {drift.length === 0 ? (
          <p className="text-sm">Nothing yet: everything the upstream sent is described by the seed.</p>
        ) : (
          <PlainTable
            label="Schema drift"
            caption="Schema drift, most recently seen first"
            headers={['Kind', 'Path', 'Value', 'Count', 'First seen', 'Last seen', 'Example']}
          >
            {drift.map((d) => (
              <tr key={`${d.kind}|${d.path}|${d.value ?? ''}`}>
                <td>{d.kind}</td>
                <td className="font-mono text-xs">{d.path}</td>
                <td className="font-mono text-xs">{d.value ?? '—'}</td>
                <td className="tabular-nums">{nf.format(d.count)}</td>
                <td>
                  <DateTime iso={d.firstSeen} short />
                </td>
                <td>
                  <DateTime iso={d.lastSeen} short />
                </td>
                <td className="font-mono text-xs">
                  <a
                    className="link-strong"
                    href={d.exampleId.startsWith('prv_') ? `/providers/${d.exampleId}` : `/collections/${d.exampleId}`}
                  >
                    {d.exampleId}
                  </a>
                </td>
              </tr>
            ))}
          </PlainTable>
        )}
      </section>
    </>
  );
}
