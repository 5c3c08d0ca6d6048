import type { Metadata } from 'next';
import Link from 'next/link';
import { unauthorized } from 'next/navigation';
import { currencyAnchor, CurrencyOverviewSection } from '@/components/overview/currency-overview';
import { FreshnessLine } from '@/components/search-index/freshness';
import { ChangesPanel } from '@/components/overview/changes-panel';
import { focusRing } from '@/components/ui/button';
import { DetailError } from '@/components/ui/detail-error';
import { EmptyState } from '@/components/ui/empty-state';
import { toSearchParams } from '@/lib/api/list-state';
import {
  correctOverviewState,
  overviewHref,
  RANGE_LABELS,
  RANGE_SHORT,
  RANGES,
  rangesWithActivity,
} from '@/lib/api/overview';
import { requestContext } from '@/lib/server/context';
import { getConfig } from '@/lib/server/env';
import { toFailure } from '@/lib/server/errors';
import { answerPageWith } from '@/lib/server/page-status';
import { indexOverview } from '@/lib/server/reads/collections';
import { runtime } from '@/lib/server/runtime';

export const metadata: Metadata = { title: 'Overview' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * `/overview?range=`: what is outstanding and what came in, per currency, with
 * charts drawn on the server. Every figure comes from the index's roll-ups and
 * links to the rows it counts.
 */
export default async function OverviewPage({ searchParams }: Props) {
  const rt = runtime();
  // proxy.ts has already redirected an unknown range; this only fills in the default.
  const { range } = correctOverviewState(toSearchParams(await searchParams)).value;
  const context = await requestContext().catch(() => unauthorized());
  const minorUnits = getConfig().amountMinorUnits;
  const result = await indexOverview(rt, context, range).catch((error: unknown) => toFailure(error, 'collections'));

  const header = (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-xl font-semibold tracking-tight">Overview</h1>
      <nav aria-label="Range">
        <ul className="flex rounded-md border border-zinc-300 text-sm dark:border-zinc-700">
          {RANGES.map((r) => (
            <li key={r} className="border-zinc-300 not-first:border-l dark:border-zinc-700">
              <Link
                href={overviewHref({ range: r })}
                aria-current={r === range ? 'page' : undefined}
                className={`block px-3 py-1.5 ${focusRing} ${
                  r === range
                    ? 'bg-zinc-900 font-medium text-white dark:bg-zinc-100 dark:text-zinc-950'
                    : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800'
                }`}
              >
                {RANGE_SHORT[r]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );

  if ('code' in result) {
    if (result.code !== 'index_unavailable') {
      answerPageWith(result.code);
      return (
        <>
          {header}
          <DetailError failure={result} />
        </>
      );
    }
    const status = await rt.index.status();
    return (
      <>
        {header}
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
  // A range that holds nothing says so and offers where the data is (the latest activity's range, all time).
  const elsewhere = rangesWithActivity(range, overview.perDay, overview.latestActivity, overview.range.to);
  return (
    <>
      {header}
      <FreshnessLine freshness={result.index} />
      {elsewhere ? (
        <p
          role="status"
          className="my-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          Nothing in the {RANGE_LABELS[range].toLowerCase()}. Latest activity:{' '}
          <DateOnly day={overview.latestActivity!} />
          {' · '}
          {elsewhere.map((r, i) => (
            <span key={r}>
              {i ? ' / ' : ''}
              <Link href={overviewHref({ range: r })} className={`font-medium underline ${focusRing}`}>
                {r === 'all' ? 'All time' : `Show the ${RANGE_LABELS[r].toLowerCase()}`}
              </Link>
            </span>
          ))}
        </p>
      ) : null}
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Figures are per currency, never summed across currencies; days are UTC days.
        {result.index.state === 'building'
          ? ' While the index is being built, they count only the collections indexed so far.'
          : ''}
      </p>
      <ChangesPanel changes={overview.changes} />
      {overview.currencies.length > 1 ? (
        <nav aria-label="Currencies" className="mt-3 text-sm">
          <ul className="flex flex-wrap gap-x-3 gap-y-1">
            {overview.currencies.map((c) => (
              <li key={c.currency}>
                <a
                  href={`#${currencyAnchor(c.currency)}`}
                  className={`rounded underline underline-offset-2 ${focusRing}`}
                >
                  {c.currency}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      {overview.currencies.length ? (
        overview.currencies.map((c) => (
          <CurrencyOverviewSection
            key={c.currency}
            figures={c}
            overview={overview}
            range={range}
            minorUnits={minorUnits}
          />
        ))
      ) : (
        <div className="mt-4">
          <EmptyState title="No collections indexed yet">
            {result.index.state === 'building'
              ? 'The index is reading the account: figures appear as collections are indexed.'
              : 'The account has no collections.'}
          </EmptyState>
        </div>
      )}
    </>
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
