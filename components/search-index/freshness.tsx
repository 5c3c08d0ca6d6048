import { formatRelative, formatUtc } from '@/lib/format/dates';

/** What the index says about itself, as a page needs it (a subset of /api/index/status). */
export type Freshness = {
  state: 'off' | 'building' | 'ready' | 'error';
  indexed: number;
  /** Collections the list does not return, indexed once opened by their id. */
  openedById?: number;
  upstreamCount: number | null;
  coverage: number;
  asOf: string | null;
  /** When the counts were read, together (/api/index/status `countedAt`): what they are "as of". */
  countedAt?: string | null;
  reason?: string;
};

const nf = new Intl.NumberFormat('en');

/**
 * "237 of 237 indexed + 1 opened by id": the listed collections indexed (`noun` after them, when given),
 * and those only opened by their id.
 */
export function indexedCount(f: Pick<Freshness, 'indexed' | 'upstreamCount' | 'openedById'>, noun?: string): string {
  const listed =
    f.upstreamCount === null ? nf.format(f.indexed) : `${nf.format(f.indexed)} of ${nf.format(f.upstreamCount)}`;
  const named = noun ? `${listed} ${noun}` : listed;
  return f.openedById ? `${named} + ${nf.format(f.openedById)} opened by id` : named;
}

/**
 * The line every index-served view carries: where the rows come from, how
 * fresh they are ("as of 12 s ago"), how much of the account is indexed, and
 * what a building or failing index means for the results.
 */
export function FreshnessLine({ freshness: f }: { freshness: Freshness }) {
  const asOf = f.asOf ? (
    <time dateTime={f.asOf} title={formatUtc(f.asOf)} suppressHydrationWarning>
      {formatRelative(f.asOf)}
    </time>
  ) : (
    'not yet synced'
  );
  const counted = indexedCount(f, 'indexed');
  return (
    <div className="mb-3 text-sm text-zinc-700 dark:text-zinc-300">
      <p>
        From the index, as of {asOf} · {counted}
      </p>
      {f.state === 'building' ? (
        <p className="text-amber-800 dark:text-amber-300">
          The index is still being built ({Math.floor(f.coverage * 100)}% so far): results may be incomplete.
        </p>
      ) : f.state === 'error' ? (
        <p className="text-amber-800 dark:text-amber-300">
          {f.reason ?? 'The index cannot sync right now'}: results may be out of date.
        </p>
      ) : null}
    </div>
  );
}
