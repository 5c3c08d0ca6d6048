import 'server-only';
import { sql, type Kysely } from 'kysely';
import { dialectOf, textType } from '../../database/dialect';

/**
 * The forgiving forms of names (contract 7a: a name word's start, its sounds) are kept once per distinct
 * word of an account instead of once per collection: `name_words` maps each form's keyed token to the
 * `name` tokens of the words it forgives, and a search reads the collections through those. At 1,000,000
 * collections the per-collection rows were 7.4 million (47 % of every token row) and, written at random
 * places of the token index, nearly doubled the first sync; a name word is met again far more often than
 * a new one is, and meeting it again writes nothing.
 *
 * The e-mail's words are kept only where they are not words of the name (blind.ts `spokenTokens`: a
 * name's words already find it): 2 million rows fewer at that size.
 *
 * The per-collection rows of the three kinds go; the backfills (store-maintenance.ts) write the vocabulary
 * and the e-mail's words again from the sealed contacts, and until they are done a name's start and sounds,
 * and an address's words, find only what was written since.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  const table = db.schema
    .createTable('name_words')
    .addColumn('account', 'integer', (c) => c.notNull())
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('token', text, (c) => c.notNull())
    .addColumn('word', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('name_words_pk', ['account', 'kind', 'token', 'word']);
  await (dialectOf(db) === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table).execute();
  await sql`delete from contact_tokens where kind in ('nameprefix', 'namesound', 'emailword')`.execute(db);
  // The e-mail's words are written again without those of the name (their backfill runs from the start).
  await sql`delete from index_meta where key like 'spoken_tokens:%'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('name_words').execute();
}
