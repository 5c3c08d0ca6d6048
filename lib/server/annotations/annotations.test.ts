import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { storeKinds } from '@/test/stores';
import type { AppDb } from '../database/connect';
import { migratedDb } from '../database/migrate';
import { createAnnotations, TagConflict, type Annotator } from './service';

const SECRET = 's'.repeat(40);
const grace: Annotator = { name: 'grace@example.com', admin: false };
const ada: Annotator = { name: 'ada@example.com', admin: false };
const admin: Annotator = { name: 'admin@example.com', admin: true };

let dir: string;
let db: AppDb;
let now: number;

describe.each(storeKinds())('notes and tags on $name', (kind) => {
  beforeAll(() => kind.setup());
  afterAll(() => kind.teardown());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'annotations-'));
    db = await migratedDb(kind.target(dir));
    now = Date.parse('2026-12-07T09:00:00Z');
  });
  afterEach(async () => {
    await db.destroy().catch(() => {});
    await kind.reset();
    rmSync(dir, { recursive: true, force: true });
  });
  const make = (key = 'sk_test_a', secret: string | null = SECRET) =>
    createAnnotations({
      database: async () => db,
      reads: async () => db,
      now: () => now,
      upstreamKey: key,
      secret: () => secret,
    });

  it('keeps notes newest first, a contact’s on each of its collections, and no readable text at rest', async () => {
    const notes = make();
    await notes.addNote(grace, 'collection', 'pay_1', 'Paid by transfer, slip in ticket #4412');
    now += 60_000;
    await notes.addNote(ada, 'contact', 'contact_9', 'Asked for an extension to Friday: amara@example.com');
    const read = await notes.notes(grace, 'pay_1', 'contact_9');
    expect(read.map((n) => [n.on, n.author, n.text])).toEqual([
      ['contact', 'ada@example.com', 'Asked for an extension to Friday: amara@example.com'],
      ['collection', 'grace@example.com', 'Paid by transfer, slip in ticket #4412'],
    ]);
    // Another collection of the same contact shows the contact's note, and not pay_1's.
    expect((await notes.notes(grace, 'pay_2', 'contact_9')).map((n) => n.on)).toEqual(['contact']);
    // The database at rest (the SQLite file, or every table's text on PostgreSQL), in any case or encoding.
    const stored = await kind.storedText(db as Kysely<never>, dir);
    expect(stored).toContain('pay_1');
    for (const needle of ['Paid by transfer', 'ticket #4412', 'extension to Friday', 'amara@example.com'])
      for (const form of [needle, Buffer.from(needle).toString('base64'), Buffer.from(needle).toString('hex')])
        expect(stored, form).not.toContain(form.toLowerCase());
    // Another account (another key) sees none of them; under another secret the text is not readable.
    expect(await make('sk_test_b').notes(grace, 'pay_1', 'contact_9')).toEqual([]);
    const other = await make('sk_test_a', 't'.repeat(40)).notes(grace, 'pay_1', null);
    expect(other[0]!.text).toMatch(/cannot be read/);
  });

  it('lets the author delete within 15 minutes and admins any time, leaving who deleted it', async () => {
    const notes = make();
    const note = await notes.addNote(grace, 'collection', 'pay_1', 'wrong amount, owner informed');
    expect(note.deletable).toBe(true);
    expect((await notes.note(ada, note.id))!.deletable).toBe(false);
    now += 15 * 60_000;
    expect((await notes.note(grace, note.id))!.deletable).toBe(false);
    expect((await notes.note(admin, note.id))!.deletable).toBe(true);
    expect(await notes.deleteNote(admin, note.id)).toBe(true);
    expect(await notes.deleteNote(admin, note.id)).toBe(false);
    const deleted = (await notes.note(grace, note.id))!;
    expect(deleted).toMatchObject({ text: null, deleted: { by: 'admin@example.com' }, deletable: false });
    const [row] = await db.selectFrom('notes').selectAll().execute();
    expect(row!.sealed).toBeNull();
    expect(await notes.noted(['pay_1'], [])).toEqual({ collections: new Set(), contacts: new Set() });
  });

  it('keeps a vocabulary one name whatever its case, renames and deletes with every collection following', async () => {
    const tags = make();
    await tags.createTag('refund-requested', 'orange');
    await expect(tags.createTag('Refund-Requested', 'red')).rejects.toBeInstanceOf(TagConflict);
    await tags.createTag('VIP', 'purple');
    expect(await tags.setTags(grace, 'pay_1', ['refund-requested', 'vip'])).toEqual({
      added: ['refund-requested', 'vip'],
      removed: [],
    });
    expect(await tags.setTags(ada, 'pay_1', ['VIP'])).toEqual({ added: [], removed: ['refund-requested'] });
    await tags.changeTag('vip', { name: 'very-important', colour: 'pink' });
    expect((await tags.tagsOf(['pay_1'])).get('pay_1')).toEqual([{ name: 'very-important', colour: 'pink' }]);
    expect((await tags.tags(true)).map((t) => [t.name, t.count])).toEqual([
      ['refund-requested', 0],
      ['very-important', 1],
    ]);
    const history = await tags.tagChanges('pay_1');
    expect(history.map((h) => [h.change, h.tag, h.by])).toEqual(
      expect.arrayContaining([
        ['tag_apply', 'vip', 'grace@example.com'],
        ['tag_remove', 'refund-requested', 'ada@example.com'],
      ]),
    );
    expect(await tags.deleteTag(admin, 'very-important')).toEqual({ name: 'very-important', removed: 1 });
    expect((await tags.tagsOf(['pay_1'])).get('pay_1')).toBeUndefined();
  });

  it('tags many at once in chunks, two people at once losing nothing and counting each row once', async () => {
    const tags = make();
    await tags.createTag('disputed', 'red');
    const ids = Array.from({ length: 2_500 }, (_, i) => `pay_${String(i).padStart(5, '0')}`);
    const [a, b] = await Promise.all([
      tags.tagMany(grace, 'disputed', ids.slice(0, 1_800)),
      tags.tagMany(ada, 'disputed', ids.slice(700)),
    ]);
    expect(a + b).toBe(2_500);
    expect((await tags.tags(true))[0]!.count).toBe(2_500);
    expect(await tags.tagMany(grace, 'disputed', ids.slice(0, 10))).toBe(0);
    const noted = await tags.tagsOf(ids.slice(0, 3));
    expect([...noted.keys()]).toEqual(ids.slice(0, 3));
  });
});
