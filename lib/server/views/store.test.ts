import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { holdTheWriter, runtimeSqlite } from '@/test/held-writer';
import { storeKinds } from '@/test/stores';
import type { AppDb } from '../database/connect';
import { migratedDb } from '../database/migrate';
import { createViewStore, ViewConflict, type Reader, type ViewFields } from './store';

let dir: string;
let db: AppDb;
let now: number;

const grace: Reader = { account: 'acct-a', owner: 'grace@example.com' };
const admin: Reader = { account: 'acct-a', owner: 'admin@example.com' };
const elsewhere: Reader = { account: 'acct-b', owner: 'admin@example.com' };

const fields = (name: string, over: Partial<ViewFields> = {}): ViewFields => ({
  name,
  query: 'status=on_hold',
  columns: ['reference', 'status', 'amount'],
  limit: 25,
  shared: false,
  ...over,
});

describe.each(storeKinds())('saved views on $name', (kind) => {
  beforeAll(() => kind.setup());
  afterAll(() => kind.teardown());
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'views-'));
    db = await migratedDb(kind.target(dir));
    now = Date.parse('2026-11-25T09:00:00Z');
  });
  afterEach(async () => {
    await db.destroy().catch(() => {});
    await kind.reset();
    rmSync(dir, { recursive: true, force: true });
  });
  const store = () =>
    createViewStore(
      async () => db,
      () => now,
    );

  it('saves a view and reads it back as its owner saved it', async () => {
    const views = store();
    const saved = await views.create(grace, fields('On hold this week'));
    expect(saved).toMatchObject({
      name: 'On hold this week',
      query: 'status=on_hold',
      columns: ['reference', 'status', 'amount'],
      limit: 25,
      shared: false,
      owner: 'grace@example.com',
      createdAt: '2026-11-25T09:00:00.000Z',
      pinned: null,
      mine: true,
      isDefault: false,
    });
    expect(saved.id).toMatch(/^view_[A-Za-z0-9_-]{16}$/);
    expect(await views.get(grace, saved.id)).toEqual(saved);
    expect((await views.list(grace)).views).toEqual([saved]);
  });

  it('another person sees a personal view only once it is shared, and never one of another account', async () => {
    const views = store();
    const mine = await views.create(admin, fields('Pending NGN'));
    expect(await views.get(grace, mine.id)).toBeNull();
    expect((await views.list(grace)).views).toEqual([]);
    now += 60_000;
    await views.update(admin, mine.id, { shared: true });
    const seen = await views.get(grace, mine.id);
    expect(seen).toMatchObject({
      shared: true,
      mine: false,
      owner: 'admin@example.com',
      updatedAt: '2026-11-25T09:01:00.000Z',
    });
    expect(await views.get(elsewhere, mine.id)).toBeNull();
    // Read-only to others: their change finds nothing of theirs, and a delete deletes nothing.
    expect(await views.update(grace, mine.id, { name: 'Mine now' })).toBeNull();
    expect(await views.remove(grace, mine.id)).toBe(false);
    expect((await views.get(admin, mine.id))!.name).toBe('Pending NGN');
  });

  it('lists the reader’s own first, then the team’s, each by name', async () => {
    const views = store();
    await views.create(admin, fields('b team', { shared: true }));
    await views.create(admin, fields('a team', { shared: true }));
    await views.create(admin, fields('private to admin'));
    await views.create(grace, fields('Zeta'));
    await views.create(grace, fields('alpha'));
    expect((await views.list(grace)).views.map((v) => [v.name, v.mine])).toEqual([
      ['alpha', true],
      ['Zeta', true],
      ['a team', false],
      ['b team', false],
    ]);
  });

  it('a name is one person’s once, whatever its case; two people may use the same', async () => {
    const views = store();
    const first = await views.create(grace, fields('On hold'));
    await expect(views.create(grace, fields('ON HOLD'))).rejects.toMatchObject({ field: 'name' });
    await expect(views.create(grace, fields('on hold'))).rejects.toBeInstanceOf(ViewConflict);
    await views.create(admin, fields('On hold'));
    const other = await views.create(grace, fields('Other'));
    await expect(views.update(grace, other.id, { name: 'on HOLD' })).rejects.toMatchObject({ field: 'name' });
    // Renaming a view to its own name in another case is fine.
    expect((await views.update(grace, first.id, { name: 'ON hold' }))!.name).toBe('ON hold');
  });

  it('keeps at most 100 views a person', async () => {
    const views = store();
    for (let n = 0; n < 100; n++) await views.create(grace, fields(`view ${n}`));
    await expect(views.create(grace, fields('one more'))).rejects.toMatchObject({ field: 'views' });
    await views.create(admin, fields('one more'));
  });

  it('pins up to five shared views, in order; unsharing unpins', async () => {
    const views = store();
    const personal = await views.create(admin, fields('personal'));
    await expect(views.pin(admin, personal.id, true)).rejects.toMatchObject({ field: 'pinned' });
    const shared = [];
    for (let n = 1; n <= 6; n++) shared.push(await views.create(admin, fields(`team ${n}`, { shared: true })));
    for (const v of shared.slice(0, 5)) await views.pin(admin, v.id, true);
    await expect(views.pin(admin, shared[5]!.id, true)).rejects.toMatchObject({ field: 'pinned' });
    expect((await views.pinned('acct-a')).map((p) => [p.name, p.pinned])).toEqual([
      ['team 1', 1],
      ['team 2', 2],
      ['team 3', 3],
      ['team 4', 4],
      ['team 5', 5],
    ]);
    await views.update(admin, shared[1]!.id, { shared: false });
    await views.pin(admin, shared[5]!.id, true);
    expect((await views.pinned('acct-a')).map((p) => p.name)).toEqual([
      'team 1',
      'team 3',
      'team 4',
      'team 5',
      'team 6',
    ]);
    expect(await views.pinned('acct-b')).toEqual([]);
  });

  it('a default per person, any view they can open; deleting the view forgets it', async () => {
    const views = store();
    const team = await views.create(admin, fields('team', { shared: true }));
    const own = await views.create(grace, fields('own'));
    await views.setDefault(grace, team.id, true);
    expect(await views.defaultView(grace)).toMatchObject({ id: team.id, isDefault: true, mine: false });
    await views.setDefault(grace, own.id, true);
    expect((await views.list(grace)).defaultId).toBe(own.id);
    await views.setDefault(grace, team.id, false); // not the default: nothing changes
    expect(await views.defaultId(grace)).toBe(own.id);
    expect(await views.remove(grace, own.id)).toBe(true);
    expect(await views.defaultId(grace)).toBeNull();
    // A default that was unshared since is not one the reader can open.
    await views.setDefault(grace, team.id, true);
    await views.update(admin, team.id, { shared: false });
    expect(await views.defaultView(grace)).toBeNull();
    expect((await views.list(grace)).defaultId).toBeNull();
  });
});

describe('saved views read beside a write in flight (SQLite: the writer is one connection)', () => {
  it("answers every read while a sync's transaction holds the writer, with what was committed before it", async () => {
    const app = await runtimeSqlite();
    try {
      const views = createViewStore(
        () => app.database.open().then((c) => c.db),
        () => Date.parse('2026-11-25T09:00:00Z'),
        async () => (await app.database.readable())!,
      );
      const mine = await views.create(admin, fields('Held beside', { shared: true }));
      await views.setDefault(admin, mine.id, true);
      await views.pin(admin, mine.id, true);
      // The transaction has written (the write lock taken) and waits: a read sent through the writer would
      // wait for it, and this test would time out.
      const held = await holdTheWriter(app.db, (trx) =>
        trx.updateTable('saved_views').set({ name: 'Renamed inside' }).where('id', '=', mine.id).execute(),
      );
      try {
        const [list, one, opened, defaultId, pinned] = await Promise.all([
          views.list(admin),
          views.get(admin, mine.id),
          views.open(admin, null),
          views.defaultId(admin),
          views.pinned(admin.account),
        ]);
        expect(list.views.map((v) => v.name)).toEqual(['Held beside']);
        expect(one).toMatchObject({ id: mine.id, name: 'Held beside', isDefault: true, pinned: 1 });
        expect(opened.view?.id).toBe(mine.id);
        expect(defaultId).toBe(mine.id);
        expect(pinned.map((p) => p.name)).toEqual(['Held beside']);
      } finally {
        await held.release();
      }
      // Committed, and read back where the reads are.
      expect((await views.get(admin, mine.id))?.name).toBe('Renamed inside');
    } finally {
      await app.close();
    }
  }, 30_000);
});
