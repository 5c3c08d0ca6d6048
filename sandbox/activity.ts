import type Database from 'better-sqlite3';
import { DEFAULT_SEED } from './db';
import { createRandom } from './random';
import { makeCollection, type SeedCollection } from './seed-data';

/**
 * A sandbox that changes, so the dashboard's index has something to follow:
 * new collections at the head of an account's list, and pending ones that get
 * paid (status, completedAt, updatedAt, a `payment.received` event). Content
 * is deterministic from the seed and the change's number (kept in the
 * database, so a restart carries on); times are the wall clock's. Records the
 * fixtures name are never touched, so tests and the "Open by ID" examples stay
 * true.
 */
export type Activity = ReturnType<typeof createActivity>;

export function createActivity(db: Database.Database, options: { protectedIds: Set<string>; seed?: number }) {
  const seed = options.seed ?? DEFAULT_SEED;
  const q = {
    counter: db.prepare("SELECT value FROM meta WHERE key = 'activity'").pluck(),
    setCounter: db.prepare(
      "INSERT INTO meta (key, value) VALUES ('activity', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    ),
    account: db.prepare('SELECT head_pos AS head, listed FROM accounts WHERE id = ?'),
    moveHead: db.prepare('UPDATE accounts SET head_pos = ?, listed = listed + 1 WHERE id = ?'),
    insert: db.prepare(
      'INSERT INTO collections (id, account_id, type, created_at, list_pos, body) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    body: db.prepare('SELECT account_id AS account, body FROM collections WHERE id = ?'),
    update: db.prepare('UPDATE collections SET body = ? WHERE id = ?'),
    // Pending, listed collections of an account from a list position on: a few candidates to complete.
    pending: db
      .prepare(
        "SELECT id FROM collections WHERE account_id = ? AND list_pos >= ? AND json_extract(body, '$.status') = 'pending' ORDER BY list_pos LIMIT 20",
      )
      .pluck(),
  };

  function nextNumber(): number {
    const n = Number(q.counter.get() ?? 0) + 1;
    q.setCounter.run(String(n));
    return n;
  }

  /** A new collection at the head of `account`'s list (fields in `overrides` replace the generated ones). */
  const add = db.transaction((account: string, overrides: Partial<SeedCollection> = {}): SeedCollection => {
    const row = q.account.get(account) as { head: number; listed: number } | undefined;
    if (!row) throw new Error(`no account ${account}`);
    const n = nextNumber();
    const r = createRandom(seed + 1_000_003 * n);
    const now = Date.now();
    const generated = makeCollection(r, 100_000 + n, now, true);
    // New ones are open: the activity completes some of them later.
    const record = {
      ...generated,
      status: 'pending',
      completedAt: null,
      events: [],
      updatedAt: generated.createdAt,
      ...overrides,
    };
    q.insert.run(record.id, account, record.type, record.createdAt, row.head - 1, JSON.stringify(record));
    q.moveHead.run(row.head - 1, account);
    return record;
  });

  /** Marks one collection paid now; refuses the fixtures' records and ones already completed. */
  const complete = db.transaction((id: string): SeedCollection | null => {
    const row = q.body.get(id) as { account: string; body: string } | undefined;
    if (!row || options.protectedIds.has(id)) return null;
    const record = JSON.parse(row.body) as SeedCollection;
    if (record.status === 'completed') return null;
    const now = new Date().toISOString();
    const method = record.payable.methods[0] ?? 'payment_link';
    const updated: SeedCollection = {
      ...record,
      status: 'completed',
      completedAt: now,
      updatedAt: now,
      events: [...record.events, { type: 'payment.received', createdAt: now, method }],
    };
    q.update.run(JSON.stringify(updated), id);
    return updated;
  });

  /** One tick of activity mode: a new collection, and now and then an older pending one paid. */
  function tick(account = 'acc_demo') {
    const added = add(account);
    const n = Number(q.counter.get());
    const r = createRandom(seed + 7 * n);
    let completed: SeedCollection | null = null;
    if (r.chance(0.5)) {
      const head = (q.account.get(account) as { head: number; listed: number }).head;
      const from = head + r.int(0, 400);
      for (const candidate of q.pending.all(account, from) as string[]) {
        completed = complete(candidate);
        if (completed) break;
      }
    }
    return { added, completed };
  }

  let timer: NodeJS.Timeout | null = null;
  return {
    add,
    complete,
    tick,
    start(intervalMs: number) {
      timer ??= setInterval(() => tick(), intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
