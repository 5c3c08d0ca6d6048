import 'server-only';
import type { Compilable, Kysely, Transaction } from 'kysely';
import { dialectOf } from './dialect';
import type { AppDatabase } from './schema';
import { markSentAhead } from './sqlite-writer';

/**
 * The statements sent ahead in a PostgreSQL transaction opened by `aheadSettled`: their answers, and the first
 * failure among them.
 */
type Ahead = { running: Promise<void>[]; failure: { error: unknown } | null };
const aheadOnPostgres = new WeakMap<object, Ahead>();

/**
 * Runs a write inside a transaction whose answer its caller does not need (an insert of many rows), without
 * waiting for it: the next statement is built while the database runs this one.
 * - On SQLite's writer, it is sent to the writer's thread (each answer waited for cost a first sync ~14 round
 *   trips a transaction, each waiting for the request thread's next turn).
 * - On PostgreSQL, inside `aheadSettled`: Kysely runs a transaction's statements one after another on its
 *   connection, so this one goes first, and the request thread builds the next meanwhile (a first scan's
 *   transaction waited for each of its ~14 answers before building the next statement: ~40 ms of building
 *   and ~90 ms of PostgreSQL's work a page, one after the other).
 *
 * A failure is the transaction's: on SQLite its next statement waited for (at the latest, its commit) fails
 * with it; on PostgreSQL `aheadSettled` throws it before the commit (PostgreSQL would answer the commit of an
 * aborted transaction with a rollback, not an error). Elsewhere (outside a transaction, or a PostgreSQL
 * transaction not opened by `aheadSettled`) the statement runs and is waited for as any other.
 */
export async function sendAhead(trx: Kysely<AppDatabase>, query: Compilable): Promise<void> {
  const compiled = query.compile();
  const ahead = aheadOnPostgres.get(trx);
  if (ahead) {
    ahead.running.push(
      trx.executeQuery(compiled).then(
        () => {},
        (error: unknown) => {
          ahead.failure ??= { error };
        },
      ),
    );
    return;
  }
  markSentAhead(compiled);
  await trx.executeQuery(compiled);
}

/**
 * Runs `fn` in the transaction `trx`, letting its `sendAhead` statements go ahead on PostgreSQL, and settles
 * them before returning (so before the commit): a statement sent ahead that failed fails the transaction
 * with its own error, not the "current transaction is aborted" of the statement after it. On SQLite `fn`
 * alone (the writer's connection settles what was sent ahead itself).
 */
export async function aheadSettled<T>(trx: Transaction<AppDatabase>, fn: () => Promise<T>): Promise<T> {
  if (dialectOf(trx) !== 'postgres') return fn();
  const ahead: Ahead = { running: [], failure: null };
  aheadOnPostgres.set(trx, ahead);
  try {
    let result: T;
    try {
      result = await fn();
    } catch (error) {
      await Promise.all(ahead.running);
      throw ahead.failure ? ahead.failure.error : error;
    }
    await Promise.all(ahead.running);
    if (ahead.failure) throw ahead.failure.error;
    return result;
  } finally {
    aheadOnPostgres.delete(trx);
  }
}
