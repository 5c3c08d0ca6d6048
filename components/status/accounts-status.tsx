import { PlainTable } from '@/components/ui/plain-table';
import { DateTime } from '@/components/ui/date-time';

const nf = new Intl.NumberFormat('en');

/** One account's line on /status: its index, its sync and its upstream's last five minutes. */
export type AccountStatus = {
  id: string;
  name: string;
  mode: 'live' | 'test';
  href: string;
  state: string;
  indexed: number;
  coverage: number;
  asOf: string | null;
  sync: string;
  reads: number;
  errors: number;
  keyRejected: boolean;
};

/**
 * Every account the user may see, side by side (several accounts): one whose upstream is down or whose key was
 * revoked shows here, on its own line, while the others read on.
 */
export function AccountsStatus({ accounts }: { accounts: AccountStatus[] }) {
  return (
    <section aria-labelledby="accounts" className="mb-6">
      <h2 id="accounts" className="mb-2 font-semibold">
        Accounts
      </h2>
      <PlainTable
        label="Accounts table"
        caption="Each account’s index, sync and upstream, last 5 minutes"
        headers={['Account', 'Mode', 'Index', 'Rows', 'As of', 'Sync', 'Upstream reads', 'Upstream errors']}
      >
        {accounts.map((a) => (
          <tr key={a.id}>
            <td>
              <a className="link-strong" href={a.href}>
                {a.name}
              </a>
            </td>
            <td>{a.mode === 'test' ? 'Test' : 'Live'}</td>
            <td>{a.state}</td>
            <td className="tabular-nums">
              {nf.format(a.indexed)} ({Math.round(a.coverage * 100)} %)
            </td>
            <td>{a.asOf ? <DateTime iso={a.asOf} seconds /> : 'never'}</td>
            <td>{a.sync}</td>
            <td className="tabular-nums">{nf.format(a.reads)}</td>
            <td>{a.keyRejected ? 'Key rejected (check its key)' : a.errors ? nf.format(a.errors) : 'None'}</td>
          </tr>
        ))}
      </PlainTable>
    </section>
  );
}
