import 'server-only';
import type { Transaction } from 'kysely';
import type { AppDatabase } from '../../database/schema';
import { insertRows } from '../../database/bulk-rows';
import { sendAhead } from '../../database/send-ahead';
import { nameTokens, wordForms, type BlindKeys, type Contact } from '../shared/blind';

/** Each name word of these contacts with its `name` token (for `pending`, where no `contactTokens` ran). */
export function nameWordTokens(keys: BlindKeys, contacts: Pick<Contact, 'firstName' | 'lastName'>[]) {
  const words = new Map<string, string>();
  for (const c of contacts)
    for (const word of nameTokens(`${c.firstName} ${c.lastName}`))
      if (!words.has(word)) words.set(word, keys.token('name', word));
  return words;
}

/**
 * The vocabulary of an account's names (table `name_words`, migration 0012): each distinct name word's
 * forgiving forms (its prefixes, its sounds) mapped to the word's `name` token, written the first time the
 * word is met. A search by a name's start or sound reads the words there, then the collections holding
 * those words by their `name` tokens.
 */

/** The most words a process remembers having written (a set of tokens; emptied when full). */
const REMEMBERED_WORDS = 200_000;

export type NameWordRow = { account: number; kind: string; token: string; word: string };

/**
 * Which name words a process has written the forms of: a word met again (most are) costs a set lookup,
 * not the forms' HMACs and a write. Only ever a hint: the rows are written with ON CONFLICT DO NOTHING,
 * so a word forgotten, or written by another replica, is written again harmlessly.
 */
export function createWordMemory() {
  const known = new Set<string>();
  return {
    /**
     * The forms of these name words (each with its `name` token, as `contactTokens` gave them) not yet
     * written, as far as this process knows.
     */
    pending(keys: BlindKeys, account: number, words: Map<string, string>) {
      const rows: NameWordRow[] = [];
      const fresh: string[] = [];
      for (const [word, token] of words) {
        if (known.has(token)) continue;
        fresh.push(token);
        for (const form of wordForms(keys, word)) rows.push({ account, ...form, word: token });
      }
      return { words: fresh, rows };
    },
    /** Marks words written (after their transaction committed). */
    written(words: string[]) {
      if (known.size + words.length > REMEMBERED_WORDS) known.clear();
      for (const w of words) known.add(w);
    },
  };
}
export type WordMemory = ReturnType<typeof createWordMemory>;

/** Rows a statement writes (4 parameters each, far below either store's limit). */
const ROWS_PER_STATEMENT = 2_000;

export async function writeNameWords(trx: Transaction<AppDatabase>, rows: NameWordRow[]) {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT)
    await sendAhead(
      trx,
      (await insertRows(trx, 'name_words', rows.slice(i, i + ROWS_PER_STATEMENT))).onConflict((oc) => oc.doNothing()),
    );
}
