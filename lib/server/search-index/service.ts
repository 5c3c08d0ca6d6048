import 'server-only';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { ErrorCode } from '@/lib/api/error-codes';
import { systemContext } from '../context';
import { listCollections, onRecordsRead } from '../data';
import { getConfig } from '../env';
import { AppError } from '../errors';
import { logger } from '../logger';
import { blindKeys } from './blind';
import { createQueries, type IndexQueries } from './queries';
import { openIndexStore, type IndexDb, type IndexStore } from './store';
import { describeTarget, storeFault, type DatabaseTarget } from '../database/connect';
import { createSync, isErrorState, type IndexSync } from './sync';

/**
 * The index as the server runs it: opened at start (instrumentation.ts), its
 * sync looping in the background off the request path, live reads written
 * through, and a status everyone can ask for. One per process, kept on
 * globalThis because Next bundles instrumentation and routes apart.
 *
 * Faults of its own never reach the live pages: a file that cannot be opened
 * or written (read-only, disk full) turns the index off with the reason and
 * retries every minute; a file deleted or corrupted under it is set aside and
 * rebuilt; a PostgreSQL that cannot be reached turns it off until it answers
 * (retried every 10 s). Several replicas on one PostgreSQL share the rows, and
 * the sync's lease (sync.ts) lets one of them read the upstream.
 */
export type IndexState = 'off' | 'building' | 'ready' | 'error';

export type IndexStatus = {
  state: IndexState;
  indexed: number;
  upstreamCount: number | null;
  coverage: number;
  lastFullScanAt: string | null;
  lastPollAt: string | null;
  asOf: string | null;
  error?: ErrorCode;
  /** Why the index is off, or what it is doing about a fault: for the operator, in plain words. */
  reason?: string;
};

type Running = { store: IndexStore; queries: IndexQueries; sync: IndexSync; inode: number; secret: string };

const REOPEN_MS = 60_000;
/** A database that does not answer (restarting, failing over) is asked again sooner than a full disk. */
const RECONNECT_MS = 10_000;
const FACETS_TTL_MS = 30_000;
const STATUS_TTL_MS = 2_000;
const HEALTH_CHECK_MS = 5_000;
/** How long the name-pair backfill writes before the loop lets the sync and requests run, and then pauses. */
const BACKFILL_MS = 50;

function sandboxSecret(indexPath: string): string {
  // Generated once beside the index, readable by this user only; a real upstream needs INDEX_SECRET.
  const file = join(dirname(indexPath), 'index-secret');
  if (!existsSync(file)) {
    // Written whole under another name, then linked into place: two replicas starting together on one
    // machine both end up with the one secret that won, never with a half-written file or an EEXIST.
    mkdirSync(dirname(file), { recursive: true });
    const draft = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
    writeFileSync(draft, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(draft);
    }
  }
  return readFileSync(file, 'utf8').trim();
}

/** An error's code for the operator: a SQLite or SQLSTATE code, or a system one; never its message. */
const codeOf = (error: unknown): string => {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^[\w-]{1,40}$/.test(code) ? code : 'unknown';
};

function describeOpenFailure(error: unknown, target: DatabaseTarget): string {
  const code = codeOf(error);
  if (target.kind === 'postgres') {
    const where = describeTarget(target);
    if (storeFault(error) === 'unreachable' || code === 'unknown')
      return `The index's database (${where}) cannot be reached (${code}). Search and filters are off until it answers; retrying every 10 seconds.`;
    if (code.startsWith('53') || code === '25006')
      return `The index's database (${where}) cannot be written (${code}: full, or a read-only standby). Search and filters are off; retrying every minute.`;
    return `The index's database (${where}) could not be opened or migrated (${code}). Search and filters are off; retrying every minute.`;
  }
  if (/READONLY|EACCES|EROFS|EPERM|CANTOPEN|ENOTDIR|ENOENT|EEXIST/.test(code))
    return `The index cannot write its file (${code}): make INDEX_PATH's folder writable. Search and filters are off until then; retrying every minute.`;
  if (/FULL|ENOSPC/.test(code))
    return `The disk holding the index is full (${code}). Search and filters are off until there is room; retrying every minute.`;
  return `The index could not be opened (${code}). Search and filters are off; retrying every minute.`;
}

/** A status with no figures: the index off, or its store unreadable. */
const nothingYet = (state: 'off' | 'error', reason: string): IndexStatus => ({
  state,
  indexed: 0,
  upstreamCount: null,
  coverage: 0,
  lastFullScanAt: null,
  lastPollAt: null,
  asOf: null,
  reason,
});

function createIndexService() {
  const config = getConfig();
  const target: DatabaseTarget =
    config.database.kind === 'sqlite' ? { kind: 'sqlite', path: resolve(config.database.path) } : config.database;
  /** The SQLite file, watched for deletion; null on PostgreSQL. */
  const path = target.kind === 'sqlite' ? target.path : null;
  let running: Running | null = null;
  let offReason: string | null = null;
  let offUntil = 0;
  let started = false;
  let stopped = false;
  let opening: Promise<void> | null = null;
  let cached: { at: number; status: IndexStatus } | null = null;
  let lastHealthCheck = 0;
  let timer: NodeJS.Timeout | null = null;
  let facets: { at: number; value: Promise<Awaited<ReturnType<IndexQueries['facets']>>> } | null = null;
  const owner = `${process.pid}-${randomBytes(4).toString('hex')}`;

  function disabledReason(): string | null {
    if (!config.index.enabled) return 'The index is turned off (INDEX=off). Search and filters are unavailable.';
    if (!config.upstream.sandbox && !config.index.secret)
      return 'Set INDEX_SECRET (at least 32 characters) to turn on search and filters.';
    return null;
  }

  async function open(): Promise<void> {
    // On the sandbox the secret is generated beside INDEX_PATH (replicas on one machine share it).
    const secret = config.index.secret ?? sandboxSecret(resolve(config.index.path));
    const keys = blindKeys(secret);
    const account = keys.accountKey(config.upstream.baseUrl, config.upstream.key);
    const store = await openIndexStore({
      target,
      keys,
      account,
      onRebuild: () => logger.warn('index: INDEX_SECRET changed since the index was written; rebuilding it'),
    });
    const sync = createSync({
      store,
      readPage: async (page, limit) => listCollections(systemContext('index-sync'), { page, limit }),
      now: Date.now,
      rps: config.index.syncRps,
      pollMs: config.index.pollMs,
      owner,
      log: logger,
    });
    running = { store, queries: createQueries(store), sync, inode: path ? statSync(path).ino : 0, secret };
    offReason = null;
    cached = null;
    logger.info({ opened: store.opened }, 'index: open');
  }

  async function ensureOpen(): Promise<void> {
    // After a write fault (full disk, read-only), wait the retry interval before trying again.
    if (running || stopped || Date.now() < offUntil) return;
    // Turned off (INDEX=off, or no secret for a real upstream): a query must never open it anyway.
    if (disabledReason()) return;
    opening ??= open()
      .catch((error: unknown) => {
        offReason = describeOpenFailure(error, target);
        offUntil = Date.now() + (storeFault(error) === 'unreachable' ? RECONNECT_MS : REOPEN_MS);
        logger.error({ code: codeOf(error), database: describeTarget(target) }, 'index: cannot open');
      })
      .finally(() => {
        opening = null;
      });
    await opening;
  }

  /** Closes the current store; a damaged file is moved aside first so the next open starts clean. */
  async function reopen(why: string, damaged: boolean): Promise<void> {
    const current = running;
    running = null;
    cached = null;
    logger.warn({ why }, 'index: reopening');
    if (current) {
      await current.sync.stop();
      await current.store.close().catch(() => {});
    }
    if (damaged && path && existsSync(path)) {
      const aside = `${path}.damaged-${Date.now()}`;
      for (const suffix of ['', '-wal', '-shm'])
        if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
    }
    await ensureOpen();
  }

  /**
   * The file we opened is still the file at INDEX_PATH (not deleted or replaced under us); on PostgreSQL,
   * the rows are still written with our secret (a replica with another INDEX_SECRET rebuilds them at its
   * start: this one then stops writing tokens nobody can match, and says why, until it is restarted).
   */
  async function checkFile(): Promise<void> {
    if (!running || Date.now() - lastHealthCheck < HEALTH_CHECK_MS) return;
    lastHealthCheck = Date.now();
    if (!path) {
      if (await running.store.sameSecret()) return;
      await turnOff(
        'Another replica rebuilt the shared index with a different INDEX_SECRET. Give every replica the same INDEX_SECRET and restart this one; search and filters are off here until then.',
        Infinity,
      );
      logger.error('index: another replica rebuilt the shared index with a different INDEX_SECRET; off');
      return;
    }
    let inode: number | null = null;
    try {
      inode = statSync(path).ino;
    } catch {
      // gone
    }
    if (inode !== running.inode) await reopen('the index file was deleted or replaced', false);
  }

  /** Closes the store and stays off for `forMs` (then the next use or loop opens it again), saying why. */
  async function turnOff(reason: string, forMs: number): Promise<void> {
    offReason = reason;
    offUntil = Date.now() + forMs;
    const current = running;
    running = null;
    cached = null;
    // Not awaited: a pool whose server stopped answering may take long to end its clients.
    if (current) void current.sync.stop().then(() => current.store.close().catch(() => {}));
  }

  async function onStoreError(error: unknown): Promise<void> {
    const code = codeOf(error);
    const fault = storeFault(error);
    if (fault === 'damaged') return reopen(`the index file is damaged (${code})`, true);
    if (fault === 'unwritable' || fault === 'unreachable') {
      logger.error({ code, database: describeTarget(target) }, 'index: store fault; off until it is fixed');
      return turnOff(describeOpenFailure(error, target), fault === 'unreachable' ? RECONNECT_MS : REOPEN_MS);
    }
    logger.error({ code }, 'index: store error');
  }

  /**
   * An index written before name pairs existed gets them on a timer of its own, never the sync's (whose
   * waits are its pace upstream): 50 ms of slices of ~6 ms (store.ts), then 50 ms for everything else,
   * until done; searches answer as before meanwhile. A store error waits the reopen interval.
   */
  let backfilling = false;
  function backfillPairs(): void {
    if (backfilling) return;
    backfilling = true;
    const tick = async () => {
      const current = running;
      if (stopped || !current || current.store.namePairsReady) {
        backfilling = false;
        return;
      }
      let wait = BACKFILL_MS;
      try {
        await current.store.backfillNamePairs(BACKFILL_MS);
      } catch (error) {
        await onStoreError(error);
        wait = REOPEN_MS;
      }
      setTimeout(() => void tick(), wait).unref();
    };
    void tick();
  }

  async function loop(): Promise<void> {
    if (stopped) return;
    let wait = REOPEN_MS;
    try {
      await ensureOpen();
      await checkFile();
      if (running) wait = await running.sync.step();
      if (running && !running.store.namePairsReady) backfillPairs();
    } catch (error) {
      await onStoreError(error);
      wait = 1_000;
    }
    // Off: back when the fault's retry interval is up (10 s for a database that did not answer).
    if (!running) wait = Math.min(REOPEN_MS, Math.max(1_000, offUntil - Date.now()));
    timer = setTimeout(() => void loop(), Math.max(0, wait));
    timer.unref();
  }

  /** Stops syncing and gives the lease up, leaving the store open for reads (the process is ending). */
  async function handOver(): Promise<void> {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running?.sync.stop();
  }

  return {
    /** Starts the index and its sync (idempotent). Called at server start and on first use. */
    start(): void {
      if (started) return;
      started = true;
      offReason = disabledReason();
      if (offReason) {
        logger.info({ reason: offReason }, 'index: off');
        return;
      }
      onRecordsRead((records, source, context) => {
        // The sync writes what it reads itself; only users' live reads are written through.
        if (context.principal.kind === 'system' || !running) return;
        // A record outside the list's scope (not integrated) is shown live but not indexed.
        const indexable = source === 'list' ? records : records.filter((c) => c.type === 'integrated');
        if (!indexable.length) return;
        const store = running.store;
        const seenAt = new Date().toISOString();
        setImmediate(() => {
          store.upsert(indexable, seenAt).catch((error: unknown) => void onStoreError(error));
        });
      });
      // A restart (deploy, container stop) hands the sync over at once instead of after the lease lapses.
      process.once('exit', () => running?.store.releaseNow(owner));
      // On PostgreSQL nothing can be asked at 'exit': the lease is given up at the signal, while Next.js
      // closes its server, so another replica takes the sync at its next ask (5 s), not when the lease
      // lapses (20 s). Only beside a handler that ends the process (Next.js's own, registered before this
      // runs): alone, a listener would keep SIGTERM from ending it.
      for (const signal of ['SIGTERM', 'SIGINT'] as const)
        if (process.listenerCount(signal) > 0) process.once(signal, () => void handOver());
      void loop();
    },

    async status(): Promise<IndexStatus> {
      this.start();
      await checkFile().catch(() => {});
      if (cached && Date.now() - cached.at < STATUS_TTL_MS) return cached.status;
      if (!running) {
        if (opening) await opening;
      }
      if (!running) return nothingYet('off', offReason ?? 'The index is starting.');
      const { store, sync } = running;
      try {
        const [state, indexed] = await Promise.all([store.state(), store.indexedCount()]);
        const snapshot = sync.snapshot();
        const error = isErrorState(state, snapshot.failures) ? (state.error_code as ErrorCode) : undefined;
        const coverage =
          state.upstream_count === null
            ? 0
            : state.upstream_count === 0
              ? 1
              : Math.min(1, indexed / state.upstream_count);
        const status: IndexStatus = {
          state: error ? 'error' : state.scans_completed > 0 ? 'ready' : 'building',
          indexed,
          upstreamCount: state.upstream_count,
          coverage: Math.round(coverage * 10_000) / 10_000,
          lastFullScanAt: state.last_full_scan_at,
          lastPollAt: state.last_poll_at,
          asOf: state.last_poll_at ?? state.last_full_scan_at,
          ...(error ? { error } : {}),
          ...(error === 'upstream_auth'
            ? {
                reason:
                  "The upstream API rejected the dashboard's API key; the index keeps its rows and retries every minute.",
              }
            : {}),
        };
        cached = { at: Date.now(), status };
        return status;
      } catch (error) {
        await onStoreError(error);
        // Turned off or reopened: ask again. Still the same store (an error that is no fault of the store's
        // own): say so rather than ask again forever.
        if (running !== null && running.store === store)
          return nothingYet('error', `The index could not be read (${codeOf(error)}).`);
        return this.status();
      }
    },

    /** The index's queries, or `index_unavailable` with the reason when it is off. */
    async queries(): Promise<IndexQueries> {
      this.start();
      await ensureOpen();
      if (!running) {
        throw new AppError(
          'index_unavailable',
          offReason ?? 'Search and filters are unavailable: the index is starting',
        );
      }
      return running.queries;
    },

    /**
     * What a reader in another thread needs (the export's worker): the file, the secret its keys come
     * from, and the account's key. Stays in this process; `index_unavailable` when the index is off.
     */
    async readerSpec(): Promise<{ target: DatabaseTarget; secret: string; accountKey: string }> {
      await this.queries();
      return { target, secret: running!.secret, accountKey: running!.store.accountKey };
    },

    /**
     * Each status and currency with its count, for the filter menus: computed at most every 30 s and
     * served stale while a fresh count runs (a count of a million rows is not for every page view).
     */
    async facets() {
      const queries = await this.queries();
      const now = Date.now();
      if (!facets) facets = { at: now, value: queries.facets() };
      else if (now - facets.at > FACETS_TTL_MS) {
        const fresh = queries.facets();
        const at = now;
        facets.at = at;
        fresh.then((value) => void (facets = { at, value: Promise.resolve(value) })).catch(() => {});
      }
      return facets.value.catch((error: unknown) => {
        facets = null;
        throw error;
      });
    },

    /**
     * The database the audit log writes to: the open index's own connection (one connection per file in
     * a process, so writes never wait on each other); null while the index is not open (turned off, or
     * failing: the caller keeps its entries and asks again). `off` says whether it is off for good.
     */
    async auditDb(): Promise<{ db: IndexDb | null; off: boolean; target: DatabaseTarget }> {
      if (disabledReason()) return { db: null, off: true, target };
      await ensureOpen();
      return { db: running?.store.db ?? null, off: false, target };
    },

    /**
     * Where the index lives (host, port and database, or the file; never credentials) and whether this process
     * runs the sync (null while the index is not open): for /status, where an operator tells the replicas apart.
     */
    whereAndWho(): { store: string; syncing: boolean | null } {
      return { store: describeTarget(target), syncing: running ? running.sync.snapshot().leader : null };
    },

    /** For store errors met while answering a query: reopen or turn off as the fault says. */
    storeFault: onStoreError,

    handOver,

    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (running) {
        await running.sync.stop();
        await running.store.close();
        running = null;
      }
    },
  };
}

export type IndexService = ReturnType<typeof createIndexService>;

const KEY = Symbol.for('collections-console.index-service');

/** The process's index service. */
export function indexService(): IndexService {
  const global = globalThis as Record<symbol, IndexService | undefined>;
  return (global[KEY] ??= createIndexService());
}
