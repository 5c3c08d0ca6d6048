import 'server-only';
import type { Transaction } from 'kysely';
import type { AppDatabase } from '../database/schema';
import { nameTokens, wordForms, type BlindKeys, type Contact } from './blind';

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
    /** The forms of these contacts' name words not yet written (as far as this process knows). */
    pending(keys: BlindKeys, account: number, contacts: Pick<Contact, 'firstName' | 'lastName'>[]) {
      const words = new Map<string, string>();
      for (const c of contacts)
        for (const word of nameTokens(`${c.firstName} ${c.lastName}`)) {
          const token = keys.token('name', word);
          if (!known.has(token)) words.set(token, word);
        }
      const rows: NameWordRow[] = [];
      for (const [token, word] of words)
        for (const form of wordForms(keys, word)) rows.push({ account, ...form, word: token });
      return { words: [...words.keys()], rows };
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
    await trx
      .insertInto('name_words')
      .values(rows.slice(i, i + ROWS_PER_STATEMENT))
      .onConflict((oc) => oc.doNothing())
      .execute();
}
