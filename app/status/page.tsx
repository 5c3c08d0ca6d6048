import type { Metadata } from 'next';
import { unauthorized } from 'next/navigation';
import pkg from '@/package.json';
import { DateTime } from '@/components/ui/date-time';
import { isAdmin, requestContext } from '@/lib/server/context';
import type { DriftEntry } from '@/lib/server/observability/drift';
import { AcknowledgeDrift, DRIFT_ANNOUNCE } from '@/components/status/acknowledge-drift';
import { readiness } from '@/lib/server/reads/readiness';
import { linkAccount, pageRuntime } from '@/lib/server/page-runtime';
import { withAccount } from '@/lib/accounts/href';
import { getConfig } from '@/lib/server/env';
import { PlainTable } from '@/components/ui/plain-table';
import { indexedCount } from '@/components/search-index/freshness';
import { AccountsStatus } from '@/components/status/accounts-status';
import { accountsStatus } from '@/lib/server/reads/accounts-status';

export const metadata: Metadata = { title: 'Status' };

const nf = new Intl.NumberFormat('en');
const card = 'rounded-lg border border-zinc-200 p-4 dark:border-zinc-800';
// On a phone a term sits above its value, so a value's long words (`upstream_unreachable 3`) never widen the page.
const facts = 'grid grid-cols-1 gap-x-3 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]';
const term = 'text-zinc-600 dark:text-zinc-400';

/**
 * `/status` (gated): what the engineer on call checks first. The upstream's
 * health and the last five minutes of reads, the index, the schema-drift
 * report, and which build is running.
 */
export default async function StatusPage() {
  const rt = await pageRuntime();
  const account = linkAccount(rt);
  await requestContext().catch(() => unauthorized());
  // The drift report away (its database reconnecting, its read past the bound): the rest of the page still shows.
  const [ready, index, read] = await Promise.all([
    readiness(rt),
    rt.index.status(),
    rt.drift.report().catch(() => null),
  ]);
  const drift = read ?? { entries: [], baselineAt: null };
  const admin = isAdmin(await requestContext());
  const fresh = drift.entries.filter((d) => !d.baseline);
  const baseline = drift.entries.filter((d) => d.baseline);
  const config = getConfig();
  // Several accounts: the Upstream card is this account's key; the Accounts table below has each one's.
  const window = rt.metrics.upstreamWindow(undefined, config.multiAccount ? rt.account.id : undefined);
  const accounts = config.multiAccount ? await accountsStatus(rt, await requestContext()) : [];
  const { store, syncing } = rt.index.whereAndWho();
  const check = (name: 'upstream' | 'index') => ready.checks.find((c) => c.name === name)!.ok;
  // An unknown id or another account's (404, 403) is a user's lookup answered, not an upstream fault.
  const LOOKUPS = ['not_found', 'forbidden'];
  const failed = Object.entries(window.outcomes).filter(([o]) => o !== 'ok' && !LOOKUPS.includes(o));
  const failures = failed.reduce((n, [, c]) => n + c, 0);
  const lookups = Object.entries(window.outcomes).filter(([o]) => LOOKUPS.includes(o));
  const access = config.oidc
    ? `Sign-in with OpenID Connect (${config.oidc.issuer})${config.access.users.length ? ', and HTTP Basic' : ''}`
    : config.access.users.length
      ? `HTTP Basic (${config.access.users.length} ${config.access.users.length === 1 ? 'user' : 'users'})`
      : config.access.open || config.upstream.sandbox
        ? 'Open: no access gate'
        : 'None configured';
  const keyRejected = (window.outcomes.upstream_auth ?? 0) > 0;

  return (
    <>
      <h1 className="mb-4 text-xl font-semibold tracking-tight">Status</h1>
      <div className="mb-6 grid gap-4 md:grid-cols-3">
        <section aria-labelledby="upstream" className={card}>
          <h2 id="upstream" className="mb-2 font-semibold">
            Upstream
          </h2>
          <dl className={facts}>
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
            <dt className={term}>Lookups of unknown ids</dt>
            <dd>
              {lookups.length
                ? lookups.map(([o, c]) => `${o === 'not_found' ? 'not found' : "another account's"} ${c}`).join(', ')
                : 'None'}
            </dd>
          </dl>
        </section>
        <section aria-labelledby="index" className={card}>
          <h2 id="index" className="mb-2 font-semibold">
            Search index
          </h2>
          <dl className={facts}>
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
            {/* Prose wraps between words; only a long token (a path, a URL) may break anywhere. */}
            <dd className="wrap-anywhere">{store}</dd>
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
          <dl className={facts}>
            <dt className={term}>Version</dt>
            <dd>{pkg.version}</dd>
            <dt className={term}>Built</dt>
            <dd>{process.env.BUILD_TIME ? <DateTime iso={process.env.BUILD_TIME} seconds /> : 'unknown'}</dd>
          </dl>
        </section>
      </div>
      {accounts.length ? <AccountsStatus accounts={accounts} /> : null}
      <section aria-labelledby="config" className={`${card} mb-6`}>
        <h2 id="config" className="mb-2 font-semibold">
          Effective configuration
        </h2>
        <p className="mb-2 text-sm text-zinc-600 dark:text-zinc-400">
          What this replica runs with, as it read its environment at start (no secret is shown).
        </p>
        <dl className={facts}>
          <dt className={term}>Upstream</dt>
          <dd>
            <span className="wrap-anywhere">{config.upstream.baseUrl}/public</span>
            {config.upstream.sandbox ? ' (the embedded sandbox)' : ''}
          </dd>
          <dt className={term}>API key</dt>
          <dd>
            sent in {config.upstream.keyHeader}, ending …{config.upstream.key.slice(-4)}; timeout{' '}
            {nf.format(config.upstream.timeoutMs)} ms
          </dd>
          <dt className={term}>Access</dt>
          <dd>
            {access}
            {config.access.admins.length ? `; ${config.access.admins.length} named admins` : ''}
          </dd>
          <dt className={term}>Index</dt>
          <dd>
            {config.index.enabled ? (
              <>
                on, in <span className="wrap-anywhere">{store}</span>
              </>
            ) : (
              'off (INDEX=off)'
            )}
            {config.index.account ? (
              <>
                ; account labelled <span className="wrap-anywhere">{config.index.account}</span>
              </>
            ) : null}
          </dd>
          <dt className={term}>Sync</dt>
          <dd>
            full scans at {config.index.syncRps} requests/s, head polls every {config.index.pollMs / 1000} s
          </dd>
          <dt className={term}>Kept</dt>
          <dd>
            audit log {config.auditRetentionDays} days, history {config.index.historyRetentionDays} days, accounts
            unopened {config.index.accountRetentionDays} days
          </dd>
          <dt className={term}>Amounts</dt>
          <dd>{config.amountMinorUnits ? 'in major units (AMOUNT_MINOR_UNITS=true)' : 'as the API gives them'}</dd>
          <dt className={term}>Metrics</dt>
          <dd>{config.metricsToken ? 'on (GET /api/metrics with its token)' : 'off (no METRICS_TOKEN)'}</dd>
        </dl>
      </section>
      <section aria-labelledby="drift">
        <h2 id="drift" tabIndex={-1} className="mb-1 font-semibold">
          Schema drift
        </h2>
        {/* What an acknowledgement did, said by its button (components/status/acknowledge-drift.tsx). */}
        <p id={DRIFT_ANNOUNCE} role="status" className="sr-only" />
        <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">
          Fields the seed does not describe and values of its open sets it does not name, as the upstream sends them.
        </p>
        {read === null ? (
          <p className="text-sm">The report cannot be read right now: its database is away. Reload in a moment.</p>
        ) : drift.entries.length === 0 ? (
          <p className="text-sm">Nothing yet: everything the upstream sent is described by the seed.</p>
        ) : (
          <>
            <p className="mb-3 text-sm">
              {drift.baselineAt ? (
                <>
                  New since the baseline: what the upstream had sent by the end of the first whole sync (
                  <DateTime iso={drift.baselineAt} short />) is listed apart, with what an admin acknowledged.
                </>
              ) : (
                'No baseline yet: the first whole sync sets it. Until then every entry is new.'
              )}
            </p>
            {fresh.length === 0 ? (
              <p className="text-sm">Nothing new since the baseline.</p>
            ) : (
              <DriftTable
                label="New schema drift"
                caption={`New schema drift: ${fresh.length} ${fresh.length === 1 ? 'entry' : 'entries'}, most recently seen first`}
                entries={fresh}
                acknowledge={admin}
                admin={admin}
                account={account}
              />
            )}
            {baseline.length > 0 ? (
              <details className="mt-4">
                <summary className="cursor-pointer text-sm font-medium">
                  Baseline: {baseline.length} {baseline.length === 1 ? 'entry' : 'entries'} the upstream has always
                  sent, or acknowledged
                </summary>
                <DriftTable
                  label="Schema drift baseline"
                  caption="Schema drift baseline, most recently seen first"
                  entries={baseline}
                  className="mt-2"
                  admin={admin}
                  account={account}
                />
              </details>
            ) : null}
          </>
        )}
      </section>
    </>
  );
}

/** Entries of the drift report: new ones with their first-seen time first, and Acknowledge for admins. */
function DriftTable({
  label,
  caption,
  entries,
  acknowledge = false,
  admin,
  className,
  account,
}: {
  account: string | null;
  label: string;
  caption: string;
  entries: DriftEntry[];
  acknowledge?: boolean;
  /** Who acknowledged an entry is an admin's e-mail: shown to admins only. */
  admin: boolean;
  className?: string;
}) {
  const acknowledged = entries.some((d) => d.acknowledged);
  return (
    <PlainTable
      label={label}
      caption={caption}
      className={className}
      headers={[
        'Kind',
        'Path',
        'Value',
        'Count',
        'First seen',
        'Last seen',
        'Example',
        ...(acknowledged ? ['Acknowledged'] : []),
        ...(acknowledge ? ['Action'] : []),
      ]}
    >
      {entries.map((d) => (
        <tr
          key={`${d.kind}|${d.path}|${d.value ?? ''}`}
          className={d.baseline ? undefined : 'bg-amber-50 dark:bg-amber-950/40'}
        >
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
              href={withAccount(
                d.exampleId.startsWith('prv_') ? `/providers/${d.exampleId}` : `/collections/${d.exampleId}`,
                account,
              )}
            >
              {d.exampleId}
            </a>
          </td>
          {acknowledged ? (
            <td>
              {d.acknowledged ? (
                <>
                  {admin ? `${d.acknowledged.by}, ` : ''}
                  <DateTime iso={d.acknowledged.at} short />
                </>
              ) : (
                '—'
              )}
            </td>
          ) : null}
          {acknowledge ? (
            <td>
              <AcknowledgeDrift kind={d.kind} path={d.path} value={d.value} />
            </td>
          ) : null}
        </tr>
      ))}
    </PlainTable>
  );
}
