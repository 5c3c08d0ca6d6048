import 'server-only';
import type { Kysely } from 'kysely';

/**
 * Completion times are read per day (a range's median) and for the whole
 * account (all time), never per month or year: those rows are no longer
 * written (a bulk sync of a million collections wrote 260,000 of them for
 * nothing), and the ones already there go.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await (db as Kysely<{ rollup_durations: { grain: string } }>)
    .deleteFrom('rollup_durations')
    .where('grain', 'in', ['m', 'y'])
    .execute();
}

/** Nothing to restore: the next recount writes what the code of the time reads. */
export async function down(): Promise<void> {}
