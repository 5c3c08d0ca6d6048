import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaults, filterSchema, type Filters } from '@/lib/api/list-state';
import { collectionSchema, type Collection } from '@/lib/api/schemas';
import { sampleCollection } from '@/test/samples';
import { storeKinds } from '@/test/stores';
import { blindKeys } from './shared/blind';
import { createQueries } from './read';
import { CONTACTS_LINKED } from './shared/meta-keys';
import { openIndexStore, type IndexStore } from './store';

/**
 * A page per contact (contract section 14), on both stores: every collection of a contact id whatever
 * e-mail or phone it carries, its totals per currency, the other contact ids under its e-mail, a collection
 * that moves to another contact, and an index written before contact pages made whole by its next scan.
 */
const keys = blindKeys('a-test-secret-that-is-long-enough-0123456789');
const T1 = '2026-11-24T10:02:00.000Z';
const T2 = '2026-11-24T10:04:00.000Z';

const person = (id: string, email = 'amara.okafor@example.com', phone = '+234 803 123 4567') => ({
  id,
  firstName: 'Amara',
  lastName: 'Okafor',
  email,
  phone,
});
const record = (id: string, overrides: Record<string, unknown> = {}): Collection =>
  collectionSchema.parse(sampleCollection({ id, reference: `INV-${id}`, ...overrides }));

const AMARA = 'contact_amara';
const RECORDS = [
  record('pay_c1', { contact: person(AMARA), amount: { value: 5000, currency: 'NGN' } }),
  // The same contact under another e-mail and phone: still hers (the id is the key).
  record('pay_c2', {
    contact: person(AMARA, 'amara@work.example', '+44 7700 900123'),
    amount: { value: 7000, currency: 'NGN' },
    status: 'completed',
    completedAt: '2026-11-21T10:00:00.000Z',
    createdAt: '2026-11-21T09:00:00.000Z',
  }),
  record('pay_c3', { contact: person(AMARA), amount: { value: 30, currency: 'USD' }, status: 'expired' }),
  // Opened by its id only (the list does not return it): still one of hers.
  record('pay_c4', { contact: person(AMARA), type: 'standalone', amount: { value: 1000, currency: 'NGN' } }),
  // Recreated upstream under the same e-mail, and someone else altogether.
  record('pay_c5', { contact: person('contact_amara_again'), amount: { value: 2000, currency: 'NGN' } }),
  record('pay_c6', {
    contact: {
      id: 'contact_bola',
      firstName: 'Bola',
      lastName: 'Ade',
      email: 'bola@example.com',
      phone: '+234 803 000 1111',
    },
  }),
];

let dir: string;
let store: IndexStore;

describe.each(storeKinds())('contact pages on $name', (kind) => {
  beforeAll(() => kind.setup());
  afterAll(() => kind.teardown());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'contacts-'));
    store = await openIndexStore({ target: kind.target(dir), keys, account: 'acct_contacts' });
  });
  afterEach(async () => {
    await store.close();
    await kind.reset();
    rmSync(dir, { recursive: true, force: true });
  });
  const list = async (contact: string, filters: Partial<Filters> = {}) =>
    (await createQueries(store).list({ ...defaults(filterSchema), contact, ...filters }, 1, 50)).data.map((s) => s.id);

  it('lists every collection of a contact id, whatever e-mail or phone it carries, opened by id or listed', async () => {
    await store.upsert(RECORDS, T1);
    expect((await list(AMARA)).sort()).toEqual(['pay_c1', 'pay_c2', 'pay_c3', 'pay_c4']);
    expect(await list('contact_bola')).toEqual(['pay_c6']);
    expect(await list('contact_nobody')).toEqual([]);
    // With the list's filters and sort.
    expect(
      (
        await createQueries(store).list(
          { ...defaults(filterSchema), contact: AMARA, currency: ['NGN'], sort: '-amount' },
          1,
          50,
        )
      ).data.map((s) => s.id),
    ).toEqual(['pay_c2', 'pay_c1', 'pay_c4']);
    // Each summary carries its contact id (the search results link the contact's page).
    const [first] = (await createQueries(store).list({ ...defaults(filterSchema), contact: 'contact_bola' }, 1, 1))
      .data;
    expect(first!.contact.id).toBe('contact_bola');
  });

  it('totals per currency: pending, completed and every other status, with the filter menus’ counts', async () => {
    await store.upsert(RECORDS, T1);
    const head = await createQueries(store).contact(AMARA);
    expect(head).not.toBeNull();
    expect(head!.contact).toEqual({
      firstName: 'Amara',
      lastName: 'Okafor',
      // From her newest collection (its e-mail and phone at work), opened and masked.
      email: 'amara@work.example',
      phone: '+44 7700 900123',
      emailMasked: 'a•••@work.example',
      phoneMasked: '+44 ••• ••• 0123',
    });
    expect(head!.totals).toEqual([
      {
        currency: 'NGN',
        pending: { count: 2, amount: 6000 },
        completed: { count: 1, amount: 7000 },
        other: { count: 0, amount: 0 },
      },
      {
        currency: 'USD',
        pending: { count: 0, amount: 0 },
        completed: { count: 0, amount: 0 },
        other: { count: 1, amount: 30 },
      },
    ]);
    expect(head!.facets.currency).toEqual([
      { value: 'NGN', count: 3 },
      { value: 'USD', count: 1 },
    ]);
    expect(head!.linked).toBe(true);
    expect(await createQueries(store).contact('contact_nobody')).toBeNull();
  });

  it('offers the other contact ids under the same e-mail, never the contact itself', async () => {
    await store.upsert(RECORDS, T1);
    // The newest collection's e-mail is the one looked for (pay_c5's); pay_c2 of hers is under another.
    const head = await createQueries(store).contact('contact_amara_again');
    // Her whole count (under both of her e-mails), not only the collections found under this one.
    expect(head!.sameEmail).toEqual([{ id: AMARA, firstName: 'Amara', lastName: 'Okafor', count: 4 }]);
    expect((await createQueries(store).contact('contact_bola'))!.sameEmail).toEqual([]);
  });

  it('moves a collection whose contact id changed, and keeps that as a contact change', async () => {
    await store.upsert(RECORDS, T1);
    await store.upsert(
      [record('pay_c1', { contact: person('contact_amara_again'), amount: { value: 5000, currency: 'NGN' } })],
      T2,
    );
    expect((await list(AMARA)).sort()).toEqual(['pay_c2', 'pay_c3', 'pay_c4']);
    expect((await list('contact_amara_again')).sort()).toEqual(['pay_c1', 'pay_c5']);
    expect((await createQueries(store).history('pay_c1')).entries).toEqual([
      { seenAt: T2, notSeenBefore: T1, changes: [{ field: 'contact' }] },
    ]);
  });

  it('an index written before contact pages gets every link from its next full scan, and says so until then', async () => {
    await store.upsert(RECORDS, T1);
    // As an older version left it: no contact tokens, snapshots without the contact id, the mark pending.
    const db = store.db as unknown as Kysely<Record<string, never>>;
    await sql`delete from contact_tokens where kind = 'contact'`.execute(db);
    await sql`update collection_details set snapshot = null`.execute(db);
    const key = `${CONTACTS_LINKED}:${store.account}`;
    await sql`update index_meta set value = ${'after:2026-11-24T10:03:00.000Z'} where key = ${key}`.execute(db);
    expect(await list(AMARA)).toEqual([]);

    // A scan that began before this version opened the store completes: not whole yet.
    await store.scanCompleted('2026-11-24T10:00:00.000Z');
    expect(await createQueries(store).contact(AMARA)).toBeNull();
    // The next scan sees every listed record again, unchanged: each is written once more, with its link and
    // no history. The one only opened by its id (no scan sees it) still waits: not whole until it is opened.
    await store.upsert(
      RECORDS.filter((r) => r.type === 'integrated'),
      T2,
    );
    await store.scanCompleted('2026-11-24T10:03:30.000Z');
    expect((await createQueries(store).contact(AMARA))!.linked).toBe(false);
    await store.upsert(
      RECORDS.filter((r) => r.type !== 'integrated'),
      T2,
    );
    await store.scanCompleted('2026-11-24T10:03:30.000Z');
    expect((await list(AMARA)).sort()).toEqual(['pay_c1', 'pay_c2', 'pay_c3', 'pay_c4']);
    expect((await createQueries(store).contact(AMARA))!.linked).toBe(true);
    for (const r of RECORDS) expect((await createQueries(store).history(r.id)).entries).toEqual([]);
  });
});
