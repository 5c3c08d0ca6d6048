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
 * Each kind's query, the statements its whole search sends today at most, and its plan's (issue 74: one, two
 * for a phone number, whose countries come first). The search's are the plan's, the count's and the page's,
 * then the rows' details beside the tokens that say why each matched (sent together: one wait).
 */
const KINDS = [
  ['e-mail', 'amara.8@example.com', 6, 1],
  ['phone', '+234 803 000 008', 6, 2],
  ['national phone', '0803 000 008', 6, 2],
  ['last four', '0008', 6, 1],
  ['reference', 'INV-2026-00042', 5, 1],
  ['reference prefix', 'INV-2026-000', 5, 1],
  ['reference fragment', '00042', 5, 2],
  ['name', 'Amara Okafor', 5, 1],
  ['one name word', 'Okafor', 6, 1],
  ['name prefix', 'Oka', 5, 1],
  ['name sounds like', 'Okafur', 5, 1],
  ['e-mail local part', 'amara.8@gmail.com', 6, 1],
  ['no match', 'zzqx', 3, 1],
] as const;

describe('statements a search sends', () => {
  it.each(KINDS)('%s (%s): at most %i, %i to plan it', async (_, q, most, planned) => {
    const queries = createQueries({ ...store, reads: store.reads.withPlugin(counting) });
    statements = 0;
    await queries.plan(q);
    expect(statements).toBe(planned);
    statements = 0;
    const page = await queries.search(q, noFilters, 1, 25);
    expect(statements).toBeGreaterThan(0);
    expect(statements).toBeLessThanOrEqual(most);
    // Each kind finds what it names (the count is no measure of a search that finds nothing).
    if (q !== 'zzqx') expect(page.count).toBeGreaterThan(0);
    else expect(page.count).toBe(0);
  });
});
