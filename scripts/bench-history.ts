/**
 * `npm run bench:history` (issue 35): what keeping the history costs the sync's writes, side by side in one
 * run, and the history's size after a simulated week of the sandbox's activity mode. SQLite, as the sync
 * writes: the records first written in bulk (a first sync records no history), then changed records written
 * in slices of 100 while a scan runs, by a store that keeps history and one that does not
 * (`keepHistory: false`), interleaved, three rounds each; then a week of activity (a completion every 10 s
 * on average: a tick every 5 s, half of them paying an older pending collection), each day's completions
 * written as that day's rescan would, and the history's table and indexes measured (SQLite's `dbstat`).
 *
 *   BENCH_HISTORY_RECORDS=200000   records indexed first
 *   BENCH_HISTORY_CHANGED=20000    of them changed (completed) in the measured write
 *
 * Writes bench/results-history.{json,md}. Run with `tsx --conditions=react-server` (the modules are server-only).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { collectionSchema, type Collection } from '../lib/api/schemas';
import { blindKeys } from '../lib/server/search-index/shared/blind';
import { openIndexStore, type IndexStore } from '../lib/server/search-index/store';
import { DEFAULT_SEED } from '../sandbox/db';
import { createRandom } from '../sandbox/random';
import { makeCollection } from '../sandbox/seed-data';

const RECORDS = Number(process.env.BENCH_HISTORY_RECORDS ?? 200_000);
const CHANGED = Number(process.env.BENCH_HISTORY_CHANGED ?? 20_000);
const ROUNDS = 3;
const SLICE = 100;
const DAY_MS = 86_400_000;
/** The sandbox's activity mode: a tick every 5 s (SANDBOX_ACTIVITY_MS), half of them paying one collection. */
const COMPLETIONS_A_WEEK = Math.round(((7 * DAY_MS) / 5_000) * 0.5);

const dir = join(tmpdir(), `bench-history-${process.pid}`);
mkdirSync(dir, { recursive: true });
const keys = blindKeys('bench-history-secret-of-at-least-32-characters');
const START = Date.parse('2026-01-01T00:00:00.000Z');

/** The sandbox's records, as the upstream's list sends them, every one pending (the activity pays them). */
function records(): Collection[] {
  const out: Collection[] = [];
  for (let i = 0; i < RECORDS; i++) {
    const seed = makeCollection(createRandom(DEFAULT_SEED + 7_919 * i), RECORDS - i, START - i * 60_000, true);
    out.push(
      collectionSchema.parse({
        ...seed,
        status: 'pending',
        completedAt: null,
        updatedAt: seed.createdAt,
        events: [],
      }),
    );
  }
  return out;
}

/** `record` paid at `at`: what the activity mode does to a pending collection. */
const paid = (record: Collection, at: number): Collection => {
  const time = new Date(at).toISOString();
  return { ...record, status: 'completed', completedAt: time, updatedAt: time };
};

async function freshStore(name: string, keepHistory: boolean): Promise<{ store: IndexStore; path: string }> {
  const path = join(dir, `${name}.sqlite`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  const store = await openIndexStore({
    target: { kind: 'sqlite', path },
    keys,
    account: keys.accountKey({ apiKey: 'sk_bench_history' }),
    keepHistory,
  });
  return { store, path };
}

/** Writes records as a rescan does: a scan started before, slices of 100, the time of the write as seen. */
async function rescanWrite(store: IndexStore, changed: Collection[], seenAt: string) {
  await store.saveState({ scan_started_at: seenAt, scan_page: 1 });
  const started = performance.now();
  for (let i = 0; i < changed.length; i += SLICE) await store.upsert(changed.slice(i, i + SLICE), seenAt);
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  console.log(`Generating ${RECORDS.toLocaleString('en')} records…`);
  const all = records();
  // The ones changed in the measured write: spread through the account, as payments are.
  const step = Math.max(1, Math.floor(RECORDS / CHANGED));
  const chosen = all.filter((_, i) => i % step === 0).slice(0, CHANGED);

  const times: Record<'history' | 'none', number[]> = { history: [], none: [] };
  let entries = 0;
  for (let round = 1; round <= ROUNDS; round++)
    for (const mode of round % 2 ? (['history', 'none'] as const) : (['none', 'history'] as const)) {
      const { store } = await freshStore(`${mode}-${round}`, mode === 'history');
      // The first sync: every record new, no history.
      for (let i = 0; i < all.length; i += 1_000)
        await store.upsert(all.slice(i, i + 1_000), new Date(START).toISOString(), { bulk: true });
      const at = START + DAY_MS;
      const ms = await rescanWrite(
        store,
        chosen.map((c) => paid(c, at)),
        new Date(at).toISOString(),
      );
      times[mode].push(ms);
      if (mode === 'history')
        entries = Number(
          (
            (await store.db
              .selectFrom('collection_history')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()) as { n: number | string }
          ).n,
        );
      console.log(
        `round ${round}, ${mode}: ${CHANGED.toLocaleString('en')} changed records written in ${ms.toFixed(0)} ms`,
      );
      await store.close();
    }
  const withHistory = median(times.history);
  const without = median(times.none);
  const perChange = ((withHistory - without) / CHANGED) * 1000;

  // A simulated week of activity: each day's completions written as that day's rescan would.
  const { store, path } = await freshStore('week', true);
  for (let i = 0; i < all.length; i += 1_000)
    await store.upsert(all.slice(i, i + 1_000), new Date(START).toISOString(), { bulk: true });
  const random = createRandom(DEFAULT_SEED + 35);
  const pending = [...all];
  const perDay = Math.round(COMPLETIONS_A_WEEK / 7);
  for (let day = 1; day <= 7; day++) {
    const at = START + day * DAY_MS;
    const today: Collection[] = [];
    for (let k = 0; k < perDay && pending.length; k++)
      today.push(paid(pending.splice(random.int(0, pending.length - 1), 1)[0]!, at - random.int(0, DAY_MS - 1)));
    await rescanWrite(store, today, new Date(at).toISOString());
  }
  await store.close();
  const file = new Database(path, { readonly: true });
  const bytes = (
    file
      .prepare(
        "select sum(pgsize) as n from dbstat where name = 'collection_history' or name like 'collection_history%' or name like 'sqlite_autoindex_collection_history%'",
      )
      .get() as { n: number }
  ).n;
  const weekEntries = (file.prepare('select count(*) as n from collection_history').get() as { n: number }).n;
  file.close();

  const results = {
    records: RECORDS,
    changed: CHANGED,
    rounds: ROUNDS,
    changedWriteMs: { history: times.history, none: times.none },
    historyEntriesWritten: entries,
    medianWithHistoryMs: withHistory,
    medianWithoutMs: without,
    historyShareOfAChangedWrite: (withHistory - without) / withHistory,
    historyMsPerChange: perChange / 1000,
    week: { completions: weekEntries, bytes, bytesPerEntry: bytes / Math.max(1, weekEntries) },
  };
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const md = [
    '# History: its cost to the sync and a week of it',
    '',
    `SQLite, ${RECORDS.toLocaleString('en')} records, ${new Date().toISOString()}`,
    '',
    '| measure | figure |',
    '|---|---|',
    `| ${CHANGED.toLocaleString('en')} changed records written as a rescan does, median of ${ROUNDS}: keeping history / not | ${withHistory.toFixed(0)} / ${without.toFixed(0)} ms |`,
    `| the history's share of writing a changed record | ${pct(results.historyShareOfAChangedWrite)} (${(perChange / 1000).toFixed(3)} ms a change) |`,
    `| history entries written | ${entries.toLocaleString('en')} |`,
    `| a week of activity mode: entries / table and indexes | ${weekEntries.toLocaleString('en')} / ${(bytes / 2 ** 20).toFixed(1)} MiB (${(bytes / Math.max(1, weekEntries)).toFixed(0)} B an entry) |`,
  ].join('\n');
  writeFileSync('bench/results-history.json', JSON.stringify(results, null, 2));
  writeFileSync('bench/results-history.md', `${md}\n`);
  console.log(`\n${md}\n\nWrote bench/results-history.json and bench/results-history.md`);
  rmSync(dir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  rmSync(dir, { recursive: true, force: true });
  process.exitCode = 1;
});
