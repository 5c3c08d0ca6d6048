import 'server-only';
import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import { isAnyOf } from '../../database/bulk-rows';
import { isUniqueViolation } from '../../database/dialect';
import type { AppDatabase } from '../../database/schema';
import { contactTokens, sealAad } from '../shared/blind';
import type { RecordsContext } from './records-context';
import { chunks, TOKENS_PER_STATEMENT, yieldToRequests, type StoreContext } from './store-context';

/**
 * The records' blind tokens beyond their writing (records-slice.ts): those of records written again or gone,
 * deleted, and a first scan's staged tokens, merged into `contact_tokens`.
 */

/**
 * A first scan's staged tokens are merged once this many wait (~50,000 records' at ~8 tokens a record): a
 * merge writes each page of `contact_tokens`' tree it reaches once, so the fewer merges the fewer pages
 * written, and the longer a new record waits to be found by its contact (by its reference, amount or
 * status it is found at once). Measured on 300,000 generated records written as a bulk sync writes them
 * (a page a transaction): 176.5 s with every token written in place, 147.2 s staged and merged at this
 * threshold (five merges, 5.8 s of them), 141.3 s merged once at the end.
 */
export const SETTLE_AT_TOKENS = 400_000;

/**
 * A merge's slices, by the token's first character (keyed tokens are base64url, spread evenly): each a
 * transaction of its own (~100,000 tokens), so a write that arrives meanwhile (a lease's, the audit log's)
 * waits for one slice. Any order of text splits the tokens into these ranges whole (PostgreSQL's collation
 * orders them differently from SQLite's bytes, but every token falls in exactly one).
 */
const SETTLE_BOUNDS = ['G', 'W', 'm'];

/** Whether an account has tokens waiting in the staging table (`settleTokens`). */
export const anyStaged = async (q: Kysely<AppDatabase>, account: number) =>
  (await q.selectFrom('contact_tokens_staged').select('id').where('account', '=', account).limit(1).execute()).length >
  0;

/** The tokens of records as the index holds them (from their sealed contacts), deleted by key, kind by kind. */
export async function deleteTokens(trx: Transaction<AppDatabase>, store: StoreContext, sealed: Map<string, string>) {
  const { keys, account, accountKey } = store;
  const byKind = new Map<string, Set<string>>();
  for (const [id, contact] of sealed) {
    let opened;
    try {
      opened = keys.open(contact, sealAad(accountKey, id));
    } catch {
      continue; // sealed under another secret: the store was emptied at open, so this cannot happen
    }
    for (const t of contactTokens(keys, opened)) {
      if (!byKind.has(t.kind)) byKind.set(t.kind, new Set());
      byKind.get(t.kind)!.add(t.token);
    }
  }
  const ids = [...sealed.keys()];
  // A first scan's tokens may still wait in the staging table (`settleTokens`): those of these records go
  // too, or a merge would bring an old name back. The table holds rows only while a first scan runs (a few
  // tens of thousands of records' at most): read whole, as it has no index to read by.
  if (await anyStaged(trx, account))
    for (const part of chunks(ids, TOKENS_PER_STATEMENT))
      await trx
        .deleteFrom('contact_tokens_staged')
        .where('account', '=', account)
        .where(isAnyOf(trx, 'id', part))
        .execute();
  for (const [kind, tokens] of byKind) {
    for (const part of chunks([...tokens], TOKENS_PER_STATEMENT)) {
      await trx
        .deleteFrom('contact_tokens')
        .where('account', '=', account)
        .where('kind', '=', kind)
        .where(isAnyOf(trx, 'token', part))
        .where(isAnyOf(trx, 'id', ids))
        .execute();
    }
  }
}

/**
 * Merges the account's staged tokens into `contact_tokens`, in token order, slice by slice; returns how
 * many. Whatever staged them (this process, or a leader before it that stopped mid-scan).
 */
export async function settleTokens(ctx: RecordsContext): Promise<number> {
  const { store } = ctx;
  const { account, write } = store;
  ctx.staged = 0;
  let moved = 0;
  const bounds = [null, ...SETTLE_BOUNDS, null];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const [from, to] = [bounds[i], bounds[i + 1]];
    if (i) await yieldToRequests();
    // The slice's rows: the same condition for the copy and the delete.
    const inSlice = (eb: ExpressionBuilder<AppDatabase, 'contact_tokens_staged'>) =>
      eb.and([
        eb('account', '=', account),
        ...(from != null ? [eb('token', '>=', from)] : []),
        ...(to != null ? [eb('token', '<', to)] : []),
      ]);
    const merge = (tolerant: boolean) =>
      write(async (trx) => {
        const part = trx
          .selectFrom('contact_tokens_staged')
          .select(['account', 'kind', 'token', 'id'])
          .where(inSlice)
          .orderBy('kind')
          .orderBy('token')
          .orderBy('id');
        const copy = trx.insertInto('contact_tokens').columns(['account', 'kind', 'token', 'id']).expression(part);
        await (tolerant ? copy.onConflict((oc) => oc.doNothing()) : copy).execute();
        const done = await trx.deleteFrom('contact_tokens_staged').where(inSlice).executeTakeFirst();
        return Number(done.numDeletedRows);
      });
    // A staged token is rarely in `contact_tokens` already: a record's tokens are staged only while the
    // index holds no row of it (so none of its tokens), and are deleted wherever they are when it is
    // written again. A token backfill that runs during a first scan (after an upgrade that brought a new
    // kind) writes the new kind in place for every held record, staged ones included: then each slice
    // meets one. PostgreSQL's `on conflict do nothing` inserts each row speculatively, a third of a merge
    // (570,000 tokens: 3.1-3.7 s with it, 2.4 s without), so there the slice is copied plainly, and copied
    // again tolerating what it met if it met one (twice the merge's cost, during such a scan only).
    moved += await merge(store.dialect === 'sqlite').catch((error: unknown) =>
      isUniqueViolation(error) ? merge(true) : Promise.reject(error),
    );
  }
  return moved;
}
