import 'server-only';
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Clock } from '../clock';
import { storeFault } from '../database/connect';
import { codeOf, type Database } from '../database/database';
import type { ServerConfig } from '../env';
import { blindKeys } from './shared/blind';
import { createQueries, type IndexQueries } from './read';
import { openIndexStore, type IndexStore } from './store';
import { createSync, type IndexSync, type ListPage } from './write/sync';

/**
 * Keeps the index open on the application's database, or says why it is not: turned off (INDEX=off, or no
 * secret for a real upstream), the database not open (the database's own failure, retried at its pace),
 * or another replica's secret. Its faults never reach the live pages: a damaged file is set aside and the
 * index rebuilt; a file that cannot be written, or a PostgreSQL that does not answer, turns it off with
 * the reason until the database is back; a file deleted under it is opened again.
 */
export type ServiceLog = {
  debug?: (obj: object, msg: string) => void;
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
  error: (obj: object | string, msg?: string) => void;
};

export type ServiceDeps = {
  index: ServerConfig['index'];
  /** The upstream is the embedded sandbox (its secret is generated beside INDEX_PATH). */
  sandbox: boolean;
  /** The upstream's base URL and key: the account the index holds is keyed by them. */
  upstream: { baseUrl: string; key: string };
  database: Database;
  clock: Clock;
  log: ServiceLog;
  /** The dashboard's address, said once the index is ready (DASHBOARD_URL, else the local port when known). */
  url?: string;
  /** One upstream list page, read as the sync (a system context, not written through). */
  readPage(page: number, limit: number, cancel?: AbortSignal): Promise<ListPage>;
  /** Whether people are using the dashboard now: a rescan gives way to them (service-runner.ts). */
  usersActive?: () => boolean;
};

export type Running = { store: IndexStore; queries: IndexQueries; sync: IndexSync; secret: string };

const HEALTH_CHECK_MS = 5_000;

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

/** Why the index cannot use its database, in the operator's words. */
export function describeOpenFailure(error: unknown, database: Database): string {
  const code = codeOf(error);
  if (database.target.kind === 'postgres') {
    const where = database.where;
    if (storeFault(error) === 'unreachable' || code === 'unknown')
      return `The index's database (${where}) cannot be reached (${code}). Search and filters are off until it answers; trying again within 10 seconds.`;
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

export function createSupervisor(deps: ServiceDeps, owner: string) {
  const { database, clock, log } = deps;
  let running: Running | null = null;
  /** Why the index is off by its own doing (turned off, another replica's secret), and until when. */
  let offReason: string | null = null;
  let offUntil = 0;
  /** The last failure to open the store on an open database (not the database's own). */
  let lastFailure: unknown = null;
  let opening: Promise<void> | null = null;
  let lastHealthCheck = -Infinity;
  let stopped = false;
  const changed = new Set<() => void>();
  const set = (next: Running | null) => {
    running = next;
    for (const listener of changed) listener();
  };

  const disabledReason = (): string | null => {
    if (!deps.index.enabled) return 'The index is turned off (INDEX=off). Search and filters are unavailable.';
    if (!deps.sandbox && !deps.index.secret)
      return 'Set INDEX_SECRET (at least 32 characters) to turn on search and filters.';
    return null;
  };

  async function open(): Promise<void> {
    const connection = await database.open();
    // On the sandbox the secret is generated beside INDEX_PATH (replicas on one machine share it).
    const secret = deps.index.secret ?? sandboxSecret(resolve(deps.index.path));
    const keys = blindKeys(secret);
    const store = await openIndexStore({
      connection,
      setAside: database.takeSetAside(),
      keys,
      secret,
      // The account by its key (or INDEX_ACCOUNT), never its address; an index kept under the name an older
      // version gave it (its address and key) is carried over.
      account: keys.accountKey({ apiKey: deps.upstream.key, label: deps.index.account }),
      formerAccounts: [keys.addressedAccountKey(deps.upstream.baseUrl, deps.upstream.key)],
      onRebuild: () => log.warn({}, 'index: INDEX_SECRET changed since the index was written; rebuilding it'),
      onCarriedOver: () => log.info({}, 'index: kept the rows of this account from its former name (its address)'),
    });
    const sync = createSync({
      store,
      readPage: deps.readPage,
      now: clock.now,
      rps: deps.index.syncRps,
      pollMs: deps.index.pollMs,
      accountRetentionDays: deps.index.accountRetentionDays,
      historyRetentionDays: deps.index.historyRetentionDays,
      owner,
      log,
      url: deps.url,
    });
    lastFailure = null;
    set({ store, queries: createQueries(store), sync, secret });
    log.info({ opened: store.opened }, 'index: open');
  }

  /** Drops the running index (its sync stopped; awaited unless the database may hang). */
  async function drop(wait: boolean): Promise<void> {
    const current = running;
    set(null);
    if (!current) return;
    // The store's own thread (a first scan's preparing) ends with it, at once: a step under way then prepares
    // what it was waiting for itself and ends. The database is the runtime's, left open.
    const stop = Promise.all([current.sync.stop(), current.store.close()]).catch(() => {});
    if (wait) await stop;
  }

  /** Closes the index and stays off for `forMs` (then the next use or loop opens it again), saying why. */
  async function turnOff(reason: string, forMs: number): Promise<void> {
    offReason = reason;
    offUntil = clock.now() + forMs;
    await drop(false);
  }

  const supervisor = {
    owner,
    disabledReason,
    current: (): Running | null => running,
    /** Called when the running index changes (opened, dropped): the status cache forgets. */
    onChange(listener: () => void) {
      changed.add(listener);
    },
    /** Opens the index when it may be (idempotent; concurrent callers share one open). */
    async ensureOpen(): Promise<void> {
      if (running || stopped || disabledReason() || clock.now() < offUntil) return;
      opening ??= open()
        .catch((error: unknown) => {
          // The database's own failure is logged by the database; the index's, here.
          if (!database.failure()) log.error({ code: codeOf(error), database: database.where }, 'index: cannot open');
          lastFailure = error;
        })
        .finally(() => {
          opening = null;
        });
      await opening;
    },
    /** When the loop should look again while the index is off: the database's retry time or ours. */
    retryAt(): number {
      return Math.max(offUntil, database.failure()?.until ?? 0);
    },
    /** Why the index is off, for its status; null while it runs. */
    offReason(): string | null {
      if (running) return null;
      const held = database.failure();
      return (
        disabledReason() ??
        (clock.now() < offUntil ? offReason : null) ??
        (held ? describeOpenFailure(held.error, database) : null) ??
        (lastFailure ? describeOpenFailure(lastFailure, database) : null)
      );
    },
    opening: () => opening,
    /**
     * The file we opened is still the file at INDEX_PATH (not deleted or replaced under us); on PostgreSQL,
     * the rows are still written with our secret (a replica with another INDEX_SECRET rebuilds them at its
     * start: this one then stops writing tokens nobody can match, and says why, until it is restarted).
     */
    async checkHealth(): Promise<void> {
      if (!running || clock.now() - lastHealthCheck < HEALTH_CHECK_MS) return;
      lastHealthCheck = clock.now();
      if (database.target.kind === 'postgres') {
        if (await running.store.sameSecret()) return;
        await turnOff(
          'Another replica rebuilt the shared index with a different INDEX_SECRET. Give every replica the same INDEX_SECRET and restart this one; search and filters are off here until then.',
          Infinity,
        );
        log.error({}, 'index: another replica rebuilt the shared index with a different INDEX_SECRET; off');
        return;
      }
      if (!database.replaced()) return;
      await drop(true);
      await database.reopen('the index file was deleted or replaced');
      await supervisor.ensureOpen();
    },
    /** A store error met anywhere (sync, backfill, a query): the database acts on it; the index follows. */
    async fault(error: unknown): Promise<void> {
      const fault = storeFault(error);
      if (fault === 'damaged') {
        await drop(true);
        await database.fault(error);
        await supervisor.ensureOpen();
      } else if (fault === 'unwritable' || fault === 'unreachable') {
        await drop(false);
        await database.fault(error);
      } else log.error({ code: codeOf(error) }, 'index: store error');
    },
    /** Stops syncing and gives the lease up, leaving the store open for reads (the process is ending). */
    async handOver(): Promise<void> {
      stopped = true;
      await running?.sync.stop();
    },
    async stop(): Promise<void> {
      stopped = true;
      await drop(true);
    },
  };
  return supervisor;
}

export type Supervisor = ReturnType<typeof createSupervisor>;
