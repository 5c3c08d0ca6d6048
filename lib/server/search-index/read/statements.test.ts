import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaults, filterSchema } from '@/lib/api/list-state';
import { collectionSchema } from '@/lib/api/schemas';
import { sampleCollection } from '@/test/samples';
import { blindKeys } from '../shared/blind';
import { openIndexStore, type IndexStore } from '../store';
import { createQueries } from '.';

/**
 * How many statements a search sends to the reads (each a round trip to the reads thread, or to PostgreSQL):
 * counted per kind of query, so a change that adds one is seen here before a bench shows it.
 */
const keys = blindKeys('a-test-secret-that-is-long-enough-0123456789');
const noFilters = defaults(filterSchema);
const FIRST = ['Amara', 'Grace', 'José', 'Mei', 'Łukasz', 'Ada', 'Mohammed', 'Ngozi'];
const LAST = ['Okafor', 'Abdulahi', 'Sharma', 'Müller', 'Lovelace', 'Chen', 'Mensah', 'Bello'];
const record = (n: number) =>
  collectionSchema.parse(
    sampleCollection({
      id: `pay_stmt${String(n).padStart(6, '0')}`,
      reference: `INV-2026-${String(n).padStart(5, '0')}`,
      contact: {
        id: `contact_${n % 300}`,
        firstName: FIRST[n % FIRST.length]!,
        lastName: LAST[Math.floor(n / FIRST.length) % LAST.length]!,
        email: `${FIRST[n % FIRST.length]!.toLowerCase()}.${n % 300}@example.com`,
        phone: `+234 803 ${String(1_000_000 + (n % 300)).slice(1, 4)} ${String(1_000 + (n % 300)).slice(1)}`,
      },
    }),
  );

let dir: string;
let store: IndexStore;
let statements = 0;
/** Counted as each answer comes back (a subquery is transformed with its query, answered once with it). */
const counting: KyselyPlugin = {
  transformQuery: (args) => args.node,
  transformResult: async (args) => {
    statements++;
    return args.result;
  },
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'statements-'));
  store = await openIndexStore({ target: { kind: 'sqlite', path: join(dir, 'index.sqlite') }, keys, account: 'acct' });
  const all = Array.from({ length: 2_000 }, (_, n) => record(n));
  for (let i = 0; i < all.length; i += 500) await store.upsert(all.slice(i, i + 500), '2026-06-01T00:00:00.000Z');
  await store.settleTokens();
  await store.buildTrees();
}, 120_000);
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Each kind's query and the statements it sends today, at most: a change that adds a round trip fails here.
 * Issue 74 asks for one or two a search; the plan's statements (phone countries, the arms' checks, the exact
 * count, the word forms) are still apart from the page's.
 */
const KINDS = [
  ['e-mail', 'amara.8@example.com', 6],
  ['phone', '+234 803 000 008', 8],
  ['national phone', '0803 000 008', 8],
  ['last four', '0008', 8],
  ['reference', 'INV-2026-00042', 8],
  ['reference prefix', 'INV-2026-000', 8],
  ['reference fragment', '00042', 7],
  ['name', 'Amara Okafor', 8],
  ['one name word', 'Okafor', 8],
  ['name prefix', 'Oka', 8],
  ['name sounds like', 'Okafur', 8],
  ['e-mail local part', 'amara.8@gmail.com', 6],
  ['no match', 'zzqx', 6],
] as const;

describe('statements a search sends', () => {
  it.each(KINDS)('%s (%s): at most %i', async (_, q, most) => {
    const queries = createQueries({ ...store, reads: store.reads.withPlugin(counting) });
    statements = 0;
    const page = await queries.search(q, noFilters, 1, 25);
    expect(statements).toBeGreaterThan(0);
    expect(statements).toBeLessThanOrEqual(most);
    // Each kind finds what it names (the count is no measure of a search that finds nothing).
    if (q !== 'zzqx') expect(page.count).toBeGreaterThan(0);
    else expect(page.count).toBe(0);
  });
});
