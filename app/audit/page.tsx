import type { Metadata } from 'next';
import { unauthorized } from 'next/navigation';
import { AUDIT_ACTION_NAMES, parseAuditQuery } from '@/lib/api/audit';
import { DateTime } from '@/components/ui/date-time';
import { DetailError } from '@/components/ui/detail-error';
import { EmptyState } from '@/components/ui/empty-state';
import { focusRing } from '@/components/ui/button';
import { readAudit } from '@/lib/server/reads/audit';
import { requestContext } from '@/lib/server/context';
import { toFailure } from '@/lib/server/errors';
import { PlainTable } from '@/components/ui/plain-table';
import { linkAccount, pageRuntime } from '@/lib/server/page-runtime';
import { withAccount } from '@/lib/accounts/href';
import { AccountField } from '@/components/account/account-scope';

export const metadata: Metadata = { title: 'Audit log' };

type SearchParams = Record<string, string | string[] | undefined>;

const field = `rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900 ${focusRing}`;
const nf = new Intl.NumberFormat('en');

/**
 * `/audit` (admins; proxy.ts and the data layer both check): who saw what.
 * Filters are a plain GET form, so every view of the log has its own URL.
 */
export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const rt = await pageRuntime();
  const context = await requestContext().catch(() => unauthorized());
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(await searchParams)) if (typeof v === 'string') search.set(k, v);
  const parsed = parseAuditQuery(search);
  const query = parsed.ok ? parsed.value : parseAuditQuery(new URLSearchParams()).value!;
  const result = await readAudit(rt, context, query).catch((error: unknown) => toFailure(error, 'collections'));
  const pageHref = (page: number) => {
    const next = new URLSearchParams(search);
    next.set('page', String(page));
    return `/audit?${next}`;
  };

  return (
    <>
      <h1 className="mb-1 text-xl font-semibold tracking-tight">Audit log</h1>
      <p className="mb-4 text-sm text-zinc-600 dark:text-zinc-400">
        Every record opened, search, filtered view, export, sign-in and sign-out, and every refused request. Searches
        are kept as a keyed hash, never their text: type the e-mail or phone in “Searched for” to find who looked for
        it.
      </p>
      <form method="get" action="/audit" className="mb-4 flex flex-wrap items-end gap-3 text-sm">
        <AccountField />
        <label className="flex flex-col gap-1">
          User
          <input name="user" defaultValue={query.user ?? ''} className={field} placeholder="e-mail or user name" />
        </label>
        <label className="flex flex-col gap-1">
          Action
          <select name="action" defaultValue={query.action ?? ''} className={field}>
            <option value="">Any</option>
            {AUDIT_ACTION_NAMES.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Target
          <input name="target" defaultValue={query.target ?? ''} className={field} placeholder="pay_… or prv_…" />
        </label>
        <label className="flex flex-col gap-1">
          Searched for
          <input
            name="searched"
            defaultValue={query.searched ?? ''}
            className={field}
            placeholder="an e-mail, a phone"
          />
        </label>
        <label className="flex flex-col gap-1">
          From
          <input type="date" name="from" defaultValue={query.from ?? ''} className={field} />
        </label>
        <label className="flex flex-col gap-1">
          To
          <input type="date" name="to" defaultValue={query.to ?? ''} className={field} />
        </label>
        <button type="submit" className={`${field} font-medium`}>
          Show
        </button>
      </form>
      {!parsed.ok ? (
        <p role="alert" className="mb-3 text-sm text-red-700 dark:text-red-300">
          Invalid {parsed.param}: {parsed.message}. Showing the whole log instead.
        </p>
      ) : null}
      {'code' in result ? (
        <DetailError failure={result} />
      ) : result.data.length === 0 ? (
        <EmptyState title="No entries">Nothing in the log matches these filters.</EmptyState>
      ) : (
        <>
          <PlainTable
            label="Audit entries"
            caption="Audit entries, newest first"
            headers={['Time', 'User', 'Role', 'Action', 'Target', 'Outcome', 'Request id']}
          >
            {result.data.map((e) => (
              <tr key={`${e.requestId}-${e.at}-${e.action}`}>
                <td>
                  <DateTime iso={e.at} seconds />
                </td>
                <td>{e.user}</td>
                <td>{e.role}</td>
                <td className="font-mono text-xs">{e.action}</td>
                <td className="font-mono text-xs">
                  {e.target?.startsWith('pay_') ? (
                    <a className="link-strong" href={withAccount(`/collections/${e.target}`, linkAccount(rt))}>
                      {e.target}
                    </a>
                  ) : e.target?.startsWith('q:') ? (
                    <span title={e.target}>a search{e.detail?.kind ? ` (${String(e.detail.kind)})` : ''}</span>
                  ) : (
                    (e.target ?? '—')
                  )}
                </td>
                <td>{e.outcome}</td>
                <td className="font-mono text-xs">{e.requestId}</td>
              </tr>
            ))}
          </PlainTable>
          <nav aria-label="Pagination" className="mt-3 flex items-center justify-between text-sm">
            <p>
              {nf.format((query.page - 1) * query.limit + 1)}–
              {nf.format((query.page - 1) * query.limit + result.data.length)} of {nf.format(result.meta.count)}
            </p>
            <p className="flex gap-3">
              {result.meta.prev ? (
                <a className="link-strong" href={pageHref(result.meta.prev)}>
                  Previous page
                </a>
              ) : null}
              {result.meta.next ? (
                <a className="link-strong" href={pageHref(result.meta.next)}>
                  Next page
                </a>
              ) : null}
            </p>
          </nav>
        </>
      )}
    </>
  );
}
