import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { indexTables, numberedCollection } from '@/test/index-tables';
import { loweringShows, startedThreadNices, threadNices } from '@/test/thread-nices';
import { blindKeys } from '../shared/blind';
import { prepareRecord } from './prepare';
import { prepareThread } from './prepare-thread';
import { openIndexStore } from '../store';

const SECRET = 'prepare-thread-test-secret-long-enough-0123456789';
const keys = blindKeys(SECRET);

let serial = 0;
/** Contacts, names and phones met again (the thread's memos), some phones missing. */
const made = () => {
  const n = ++serial;
  return numberedCollection(n, {
    id: `contact_${n % 40}`,
    firstName: n % 5 ? `Ågot${n % 17}` : 'Chinedu Ọla',
    lastName: `Nwosu-${n % 23}`,
    phone: n % 7 ? `+234 803 ${String(n).padStart(3, '0')} 7777` : '',
  });
};

/** What a record's write holds but its seal (sealed anew each time, with a fresh IV). */
const unsealed = (prepared: ReturnType<typeof prepareRecord>) => ({
  ...prepared,
  details: { ...prepared.details, contact_sealed: undefined },
});

describe("a first scan's records prepared on a thread of their own", () => {
  const dir = mkdtempSync(join(tmpdir(), 'prepare-thread-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prepares each record as the request thread does, its contact sealed to the same contact', async () => {
    const records = Array.from({ length: 250 }, made);
    const thread = prepareThread({ secret: SECRET, account: 3, accountKey: 'acct_prepared' });
    try {
      const [first, second] = await Promise.all([
        thread.prepare(records.slice(0, 120)),
        thread.prepare(records.slice(120)),
      ]);
      const there = [...first, ...second];
      expect(there).toHaveLength(250);
      records.forEach((c, i) => {
        const here = prepareRecord(keys, 3, 'acct_prepared', c);
        expect(unsealed(there[i]!)).toEqual(unsealed(here));
        expect(keys.open(there[i]!.details.contact_sealed, `acct_prepared/${c.id}`)).toEqual(
          keys.open(here.details.contact_sealed, `acct_prepared/${c.id}`),
        );
      });
      expect(there[4]!.words.size).toBeGreaterThan(0);
    } finally {
      await thread.close();
    }
  });

  // Linux names a thread by its own id (elsewhere nothing to read); a process at nice 10 or more shows nothing.
  it.runIf(loweringShows())('runs behind the request thread for the CPU (nice 10)', async () => {
    const before = threadNices();
    const thread = prepareThread({ secret: SECRET, account: 1, accountKey: 'acct_priority' });
    try {
      expect(await thread.prepare([made()])).toHaveLength(1);
      expect(startedThreadNices(before)).toContain(10);
    } finally {
      await thread.close();
    }
  });

  it('ends when idle and starts again for the next page; once closed, it refuses (the store then prepares itself)', async () => {
    const thread = prepareThread({ secret: SECRET, account: 1, accountKey: 'acct_idle' }, { idleMs: 50 });
    const page = Array.from({ length: 5 }, made);
    await thread.prepare(page);
    expect(thread.running()).toBe(true);
    await expect.poll(() => thread.running(), { timeout: 5_000 }).toBe(false);
    expect(await thread.prepare(page)).toHaveLength(5);
    const pending = expect(thread.prepare(Array.from({ length: 2_000 }, made))).rejects.toThrow(/closed/);
    await thread.close();
    await pending;
    await expect(thread.prepare(page)).rejects.toThrow(/closed/);
    expect(thread.running()).toBe(false);
  });

  it('ends a thread that does not answer in time, and starts none after three such', async () => {
    const thread = prepareThread({ secret: SECRET, account: 1, accountKey: 'acct_stuck' }, { answerMs: 1 });
    for (let i = 0; i < 3; i++) {
      await expect(thread.prepare(Array.from({ length: 500 }, made))).rejects.toThrow(/did not answer/);
      expect(thread.running()).toBe(false);
    }
    await expect(thread.prepare([made()])).rejects.toThrow(/failed/);
    expect(thread.running()).toBe(false);
    await thread.close();
  });

  it('leaves exactly what a first scan prepared on the request thread leaves', async () => {
    // An account carried over from its former name keeps sealing under that name (its seal key): the thread
    // must seal under it too. A second account first, so the scanned one's number is not the first.
    const open = async (name: string, secret?: string) => {
      const target = { kind: 'sqlite' as const, path: join(dir, `${name}.sqlite`) };
      for (const account of ['acct_other', 'acct_former'])
        await (await openIndexStore({ target, keys, account })).close();
      return openIndexStore({
        target,
        keys,
        account: 'acct_scan',
        formerAccounts: ['acct_former'],
        clock: () => Date.UTC(2026, 5, 1),
        ...(secret ? { secret } : {}),
      });
    };
    const threaded = await open('threaded', SECRET);
    const plain = await open('plain');
    expect(threaded.accountKey).toBe('acct_former');
    expect(threaded.account).toBe(2);
    try {
      const all = Array.from({ length: 2_300 }, made);
      const seenAt = '2026-06-01T00:01:00.000Z';
      for (let i = 0; i < all.length; i += 1_000) {
        const step = all.slice(i, i + 1_000);
        // As the sync's read-ahead does: each page prepared as it comes, not awaited, then written together.
        for (let p = 0; p < step.length; p += 100) {
          void threaded.prepare(step.slice(p, p + 100));
          void plain.prepare(step.slice(p, p + 100));
        }
        await threaded.upsert(step, seenAt, { bulk: true, stage: true });
        await plain.upsert(step, seenAt, { bulk: true, stage: true });
      }
      // A page the thread cannot take (here a record holding a function, which no thread is handed) is
      // prepared by the store itself: written all the same.
      const odd = Array.from({ length: 3 }, made);
      const unclonable = odd.map((c) => ({ ...c, toJSON: () => c }));
      await expect(threaded.prepare(unclonable)).resolves.toBeUndefined();
      await threaded.upsert(unclonable, seenAt, { bulk: true, stage: true });
      await plain.upsert(odd, seenAt, { bulk: true, stage: true });
      await threaded.settleTokens();
      await plain.settleTokens();
      const [a, b] = [await indexTables(threaded.db), await indexTables(plain.db)];
      expect(a.collections).toHaveLength(2_303);
      // Every record but the three no thread can be handed was prepared on the thread.
      expect(threaded.preparedOnThread()).toBe(2_300);
      expect(plain.preparedOnThread()).toBe(0);
      expect(a.tokens.length).toBeGreaterThan(2_300 * 4);
      for (const table of Object.keys(a) as (keyof typeof a)[]) expect(a[table], table).toEqual(b[table]);
      // Every sealed contact opens, under the account's key, to the record's contact.
      const sealed = (
        await sql<{ id: string; contact_sealed: string }>`
        select id, contact_sealed from collection_details order by id`.execute(threaded.db)
      ).rows;
      const byId = new Map([...all, ...odd].map((c) => [c.id, c]));
      for (const { id, contact_sealed } of sealed) {
        const { firstName, lastName, email, phone, id: contactId } = byId.get(id)!.contact;
        expect(keys.open(contact_sealed, `${threaded.accountKey}/${id}`)).toEqual({
          firstName,
          lastName,
          email,
          phone,
          id: contactId,
        });
      }
    } finally {
      await threaded.close();
      await plain.close();
    }
  });
});
