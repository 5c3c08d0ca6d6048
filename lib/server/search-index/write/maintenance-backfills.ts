import 'server-only';
import type { Transaction } from 'kysely';
import { insertRows } from '../../database/bulk-rows';
import type { AppDb } from '../../database/connect';
import type { AppDatabase } from '../../database/schema';
import {
  namePairTokens,
  phoneCountries,
  sealAad,
  spokenTokens,
  type BlindKeys,
  type Contact,
  type TokenKind,
} from '../shared/blind';
import { CONTACTS_LINKED, HISTORY_SINCE } from '../shared/meta-keys';
import { notePhoneCountries, PHONE_COUNTRIES } from '../shared/phone-countries';
import { storedPhone, type StoredPhone } from '../shared/phones';
import { nameWordTokens, writeNameWords } from './name-words';
import { chunks, TOKENS_PER_STATEMENT, yieldToRequests, type StoreContext } from './store-context';

/**
 * The token backfills of an index written before a kind of token existed (store-maintenance.ts): each a
 * cursor in `index_meta`, moved a slice of records at a time under the write lock, until done.
 */

/**
 * Records a slice of a token backfill reads, opens and writes tokens for. At 1,000,000 collections on
 * SQLite (the name pairs): ~6 ms a slice, the whole backfill 59 s beside the service's loop, the event loop
 * held 18.5 ms at p99 (250 a slice: 47.5 ms, in the same time); PostgreSQL 80 s.
 */
const TOKENS_PER_SLICE = 100;
/** A backfill's cursor once every record has its tokens. */
const BACKFILL_DONE = 'done';

/**
 * Token kinds added after the index's first version, each with a backfill of its own (a cursor in
 * `index_meta`, absent on an index opened before the kind existed): name pairs, the e-mail's words (with
 * the account's phone countries), then the vocabulary of name words.
 */
const BACKFILLS = [
  {
    name: 'name_pairs',
    tokens: (keys: BlindKeys, contact: Contact) =>
      namePairTokens(keys, contact).map((token) => ({ kind: 'name2' as TokenKind, token })),
  },
  { name: 'spoken_tokens', tokens: spokenTokens },
  /** The forgiving forms of the account's name words (table `name_words`), once per word. */
  { name: 'name_words', tokens: (): { kind: TokenKind; token: string }[] => [] },
] as const;
export type Backfill = (typeof BACKFILLS)[number]['name'];

/** A backfill's cursor key for an account. */
export const backfillKey = (name: Backfill, account: number) => `${name}:${account}`;
/** Every backfill's cursor keys (emptied with the index when the secret changes). */
export const BACKFILL_KEY_PATTERNS = [
  ...BACKFILLS.map((b) => `${b.name}:%`),
  `${PHONE_COUNTRIES}:%`,
  `${HISTORY_SINCE}:%`,
  `${CONTACTS_LINKED}:%`,
];

/** The value `index_meta` holds under a key (undefined: none). */
export const cursorOf = async (q: AppDb | Transaction<AppDatabase>, key: string) =>
  (await q.selectFrom('index_meta').select('value').where('key', '=', key).executeTakeFirst())?.value;

/** Marks each backfill a store has not met: done when it holds no rows yet, else to run from the start. */
export async function markBackfills(db: AppDb, account: number): Promise<Set<Backfill>> {
  const done = new Set<Backfill>();
  for (const { name } of BACKFILLS) {
    const key = backfillKey(name, account);
    if ((await cursorOf(db, key)) === undefined) {
      const anyRow = await db.selectFrom('collections').select('id').where('account', '=', account).limit(1).execute();
      await db
        .insertInto('index_meta')
        .values({ key, value: anyRow.length ? '' : BACKFILL_DONE })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    }
    if ((await cursorOf(db, key)) === BACKFILL_DONE) done.add(name);
  }
  return done;
}

/** One slice of a backfill, under the write lock; the cursor it moved to. */
const slice = (store: StoreContext, backfill: (typeof BACKFILLS)[number]) => {
  const { account, accountKey, keys, write } = store;
  // Under the write lock, from reading the cursor to moving it: a record written meanwhile (with its
  // tokens, from its new contact) is never given tokens of the contact it had before.
  return write(async (trx) => {
    const key = backfillKey(backfill.name, account);
    const cursor = (await cursorOf(trx, key)) ?? BACKFILL_DONE;
    if (cursor === BACKFILL_DONE) return { moved: cursor, words: [] as string[] };
    const rows = await trx
      .selectFrom('collection_details')
      .select(['id', 'contact_sealed'])
      .where('account', '=', account)
      .where('id', '>', cursor)
      .orderBy('id')
      .limit(TOKENS_PER_SLICE)
      .execute();
    const phones: (StoredPhone | null)[] = [];
    const contacts: Contact[] = [];
    const tokens = rows.flatMap(({ id, contact_sealed }) => {
      try {
        const contact = keys.open(contact_sealed, sealAad(accountKey, id));
        contacts.push(contact);
        if (backfill.name === 'spoken_tokens') phones.push(storedPhone(contact.phone));
        return backfill.tokens(keys, contact).map((t) => ({ account, id, ...t }));
      } catch {
        return []; // sealed under another secret: the store was emptied at open, so this cannot happen
      }
    });
    const words =
      backfill.name === 'name_words' ? store.words.pending(keys, account, nameWordTokens(keys, contacts)) : null;
    if (words) await writeNameWords(trx, words.rows);
    for (const part of chunks(tokens, TOKENS_PER_STATEMENT))
      await (await insertRows(trx, 'contact_tokens', part)).onConflict((oc) => oc.doNothing()).execute();
    if (backfill.name === 'spoken_tokens') await notePhoneCountries(trx, account, phoneCountries(phones));
    const moved = rows.length < TOKENS_PER_SLICE ? BACKFILL_DONE : rows.at(-1)!.id;
    await trx.updateTable('index_meta').set({ value: moved }).where('key', '=', key).execute();
    return { moved, words: words?.words ?? [] };
  }).then(({ moved, words }) => {
    store.words.written(words);
    return moved;
  });
};

/** Whether every record has every kind of token this version writes (`done`: the backfills finished). */
export const tokensReady = (done: Set<Backfill>) => BACKFILLS.every((b) => done.has(b.name));

/** Adds to `done` the backfills another process finished (store-maintenance.ts `refreshBackfills`). */
export async function refreshBackfills(store: StoreContext, done: Set<Backfill>): Promise<void> {
  for (const { name } of BACKFILLS)
    if (!done.has(name) && (await cursorOf(store.db, backfillKey(name, store.account))) === BACKFILL_DONE)
      done.add(name);
}

/**
 * Runs the backfills not in `done`, one after the other, a slice at a time for up to `budgetMs`, adding
 * each to `done` as it finishes; true once all have.
 */
export async function backfillTokens(store: StoreContext, done: Set<Backfill>, budgetMs: number): Promise<boolean> {
  const until = performance.now() + budgetMs;
  for (const backfill of BACKFILLS) {
    while (!done.has(backfill.name)) {
      if ((await slice(store, backfill)) === BACKFILL_DONE) done.add(backfill.name);
      else if (performance.now() >= until) return false;
      else await yieldToRequests();
    }
  }
  return true;
}
