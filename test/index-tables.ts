import { sql, type Kysely } from 'kysely';
import { collectionSchema, type Collection } from '@/lib/api/schemas';
import type { AppDatabase } from '@/lib/server/database/schema';
import { sampleCollection } from './samples';

/**
 * The `n`th of a run of distinct collections a minute apart (every third completed), for the index's write
 * tests; `contact` overrides the contact made from `n`.
 */
export function numberedCollection(n: number, contact?: Partial<Collection['contact']>): Collection {
  const created = new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
  return collectionSchema.parse(
    sampleCollection({
      id: `pay_${n}`,
      reference: `REF-${n}`,
      createdAt: created,
      updatedAt: created,
      ...(n % 3 === 0
        ? { status: 'completed', completedAt: new Date(Date.parse(created) + n * 1000).toISOString() }
        : {}),
      contact: {
        id: `contact_${n}`,
        firstName: `Ågot${n}`,
        lastName: `Nwosu-${n}`,
        email: `c.${n}@example.org`,
        phone: `+234 803 ${String(n).padStart(3, '0')} 7777`,
        ...contact,
      },
    }),
  );
}

/** Everything the index's writes leave, table by table, in key order (sealed contacts aside: sealed anew each time). */
export async function indexTables(db: Kysely<AppDatabase>) {
  const read = async (text: string) => (await sql.raw(text).execute(db)).rows;
  return {
    collections: await read(
      'select account, id, reference_key, status, amount_value, currency, created_at, updated_at, completed_at from collections order by id',
    ),
    details: await read(
      'select id, reference, type, completed_at, line_item_count, line_item_totals, methods, follow_up, snapshot from collection_details order by id',
    ),
    rollups: await read(
      'select * from rollups where created_count <> 0 or completed_count <> 0 or created_amount <> 0 order by grain, period, currency, status',
    ),
    durations: await read('select * from rollup_durations where count <> 0 order by grain, period, currency, bucket'),
    history: await read('select id, changes, status_from, status_to from collection_history order by id'),
    tokens: await read('select kind, token, id from contact_tokens order by kind, token, id'),
    staged: await read('select count(*) as n from contact_tokens_staged'),
    words: await read('select kind, token, word from name_words order by kind, token, word'),
    countries: await read("select value from index_meta where key like 'phone_countries%'"),
  };
}
