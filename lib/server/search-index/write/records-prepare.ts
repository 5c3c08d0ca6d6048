import 'server-only';
import type { Collection } from '@/lib/api/schemas';
import { prepareRecord, storable, type Prepared } from './prepare';
import type { RecordsContext } from './records-context';
import { yieldToRequests } from './store-context';

/** Records prepared at most this many at a time before the event loop is given a turn (`prepare`). */
const PREPARED_PER_TURN = 10;

/** What a record's write needs of it alone (`prepareRecord`): made once, kept while its page is. */
export function preparedOf(ctx: RecordsContext, c: Collection): Prepared {
  const { keys, account, accountKey } = ctx.store;
  let found = ctx.ready.get(c);
  if (!found) {
    found = prepareRecord(keys, account, accountKey, c);
    ctx.ready.set(c, found);
  }
  return found;
}

/**
 * Prepares records about to be written (store-records.ts `IndexRecords.prepare`): on the preparing thread when
 * the store has one, resolved when the page is prepared; else here, a few at a time between other work.
 */
export async function prepare(ctx: RecordsContext, records: Collection[]): Promise<void> {
  const { thread, ready, preparing } = ctx;
  if (thread) {
    const todo = records.map(storable).filter((c) => !ready.has(c) && !preparing.has(c));
    if (!todo.length) return;
    // A thread that failed (or was closed) prepares nothing: `upsert` prepares those records itself.
    const done = thread.prepare(todo).then(
      (made) => todo.forEach((c, i) => ready.set(c, made[i]!)),
      () => {},
    );
    for (const c of todo) preparing.set(c, done);
    return done;
  }
  for (let i = 0; i < records.length; i += PREPARED_PER_TURN) {
    await yieldToRequests();
    for (const c of records.slice(i, i + PREPARED_PER_TURN)) preparedOf(ctx, storable(c));
  }
}
