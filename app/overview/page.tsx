import type { Metadata } from 'next';
import Link from '@/components/account/account-scope';
import { unauthorized } from 'next/navigation';
import { CurrencyOverviewSection } from '@/components/overview/currency-overview';
import { CurrencyTable } from '@/components/overview/currency-table';
import { AllAccountsTable } from '@/components/overview/all-accounts-table';
import { AccountScope } from '@/components/account/account-scope';
import { AccountScopeNav } from '@/components/account/scope-nav';
import { EVERY_ACCOUNT } from '@/lib/server/accounts/config';
import { overviewEveryAccount } from '@/lib/server/reads/overview-all';
import { RangeNav } from '@/components/overview/range-nav';
import { FreshnessLine } from '@/components/search-index/freshness';
import { ChangesPanel } from '@/components/overview/changes-panel';
import { TagScope } from '@/components/overview/tag-scope';
import { focusRing } from '@/components/ui/button';
import { DetailError } from '@/components/ui/detail-error';
import { EmptyState } from '@/components/ui/empty-state';
import { toSearchParams } from '@/lib/api/list-state';
import { correctOverviewState, overviewHref, RANGE_LABELS, rangesWithActivity, type Range } from '@/lib/api/overview';
import { requestContext } from '@/lib/server/context';
import { getConfig } from '@/lib/server/env';
import { toFailure } from '@/lib/server/errors';
import { answerPageWith } from '@/lib/server/page-status';
import { indexOverview } from '@/lib/server/reads/collections';
import { pageRuntime } from '@/lib/server/page-runtime';

export const metadata: Metadata = { title: 'Overview' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const notice =
  'my-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100';

/**
 * `/overview?range=&currency=&tag=`: first a table with a row per currency (what is outstanding, what came in,
 * the completion rate, the median time to complete); a row's currency opens that currency's cards, status
 * table and charts beneath it (`currency=`). Every figure comes from the index's roll-ups and links to the
 * rows it counts; without a currency, no chart is drawn and no day's roll-up is read. With tags, the
 * figures of the collections holding any of them (from their rows), every link keeping the tags.
 */
export default async function OverviewPage({ searchParams }: Props) {
  const rt = await pageRuntime();
  // proxy.ts has already redirected an unknown range; this only fills in the default.
  const { range, currency, tag } = correctOverviewState(toSearchParams(await searchParams)).value;
  const context = await requestContext().catch(() => unauthorized());
  const config = getConfig();
  const minorUnits = config.amountMinorUnits;
  // Several accounts: this account's overview, or every account's side by side (`account=all`).
  const every = config.multiAccount && (await searchParams).account === EVERY_ACCOUNT;
  const scope = config.multiAccount ? (
    <AccountScopeNav
      label="Overview of"
      current={rt.account}
      every={every}
      href={(account) => `/overview?${new URLSearchParams({ range, account })}`}
    />
  ) : null;
  if (every) {
    const accounts = await overviewEveryAccount(rt, context, range);
    return (
      <AccountScope account={EVERY_ACCOUNT}>
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-xl font-semibold tracking-tight">Overview, all accounts</h1>
          <RangeNav range={range} currency={undefined} />
        </div>
        {scope}
        <AllAccountsTable accounts={accounts} range={range} minorUnits={minorUnits} />
      </AccountScope>
    );
  }
  const result = await indexOverview(rt, context, range, currency === undefined ? 'none' : { currency }, tag).catch(
    (error: unknown) => toFailure(error, 'collections'),
  );

  const header = (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-xl font-semibold tracking-tight">Overview</h1>
      <RangeNav range={range} currency={currency} tag={tag} />
    </div>
  );
  const heading = (
    <>
      {header}
      {scope}
      {tag?.length ? <TagScope range={range} currency={currency} tag={tag} /> : null}
    </>
  );

  if ('code' in result) {
    if (result.code !== 'index_unavailable') {
      answerPageWith(result.code);
      return (
        <>
          {heading}
          <DetailError failure={result} />
        </>
      );
    }
    const status = await rt.index.status();
    return (
      <>
        {heading}
        <EmptyState title="The overview needs the search index, which is off">
          <p>{status.reason ?? result.message}</p>
          <p className="mt-2">
            Its figures are counted from the index, never by paging through the API. The{' '}
            <Link href="/collections" className="underline underline-offset-2">
              collections list
            </Link>{' '}
            and record pages still work live.
          </p>
        </EmptyState>
      </>
    );
  }

  const overview = result.data;
  const shown = overview.currencies.find((c) => c.currency === currency);
  // A range that holds nothing says so and offers where the data is (the latest activity's range, all time);
  // what the range holds is read from the currencies' sums, the same days as their perDay rows.
  const sums = overview.currencies.map((c) => ({ created: c.created, completedAmount: c.completed.amount }));
  const elsewhere = rangesWithActivity(range, sums, overview.latestActivity, overview.range.to);
  return (
    <>
      {heading}
      <FreshnessLine freshness={result.index} />
      {elsewhere ? (
        <NothingInRange
          range={range}
          currency={currency}
          tag={tag}
          latest={overview.latestActivity!}
          offers={elsewhere}
        />
      ) : null}
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Figures are per currency, never summed across currencies; outstanding is what is pending, all time; days are UTC
        days.
        {result.index.state === 'building'
          ? ' While the index is being built, they count only the collections indexed so far.'
          : ''}
      </p>
      {overview.currencies.length ? (
        <CurrencyTable overview={overview} range={range} selected={currency} minorUnits={minorUnits} />
      ) : tag?.length ? (
        <div className="mt-4">
          <EmptyState title="No collections hold these tags">
            Tag collections from their page (“Edit tags”) or from a list (“Tag selected”): their figures show here.
          </EmptyState>
        </div>
      ) : (
        <div className="mt-4">
          <EmptyState title="No collections indexed yet">
            {result.index.state === 'building'
              ? 'The index is reading the account: figures appear as collections are indexed.'
              : 'The account has no collections.'}
          </EmptyState>
        </div>
      )}
      {shown ? (
        <CurrencyOverviewSection
          figures={shown}
          overview={overview}
          range={range}
          minorUnits={minorUnits}
          closeHref={overviewHref({ range, tag })}
        />
      ) : currency !== undefined && overview.currencies.length ? (
        <p role="status" className={notice}>
          No collections in {currency} are indexed: pick a currency in the table to see its cards and charts.
        </p>
      ) : null}
      <ChangesPanel changes={overview.changes} tag={tag} />
    </>
  );
}

/** "Nothing in the last 7 days. Latest activity: 12 Jun 2025 · Show the last 30 days / All time". */
function NothingInRange({
  range,
  currency,
  tag,
  latest,
  offers,
}: {
  range: Range;
  currency: string | undefined;
  tag: string[] | undefined;
  latest: string;
  offers: Range[];
}) {
  return (
    <p role="status" className={notice}>
      Nothing in the {RANGE_LABELS[range].toLowerCase()}. Latest activity: <DateOnly day={latest} />
      {' · '}
      {offers.map((r, i) => (
        <span key={r}>
          {i ? ' / ' : ''}
          <Link href={overviewHref({ range: r, currency, tag })} className={`font-medium underline ${focusRing}`}>
            {r === 'all' ? 'All time' : `Show the ${RANGE_LABELS[r].toLowerCase()}`}
          </Link>
        </span>
      ))}
    </p>
  );
}

/** A UTC day as people read it ("12 Jun 2025"), the same on the server and in any zone. */
function DateOnly({ day }: { day: string }) {
  const text = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));
  return <time dateTime={day}>{text}</time>;
}
