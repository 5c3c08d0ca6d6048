import 'server-only';
import type { Clock } from '../clock';
import { storeFault } from '../database/connect';
import { codeOf, type Database } from '../database/database';
import type { ServerConfig } from '../env';
import type { IndexQueries } from './read';
import { openRunning } from './service-supervisor-open';
import type { IndexStore } from './store';
import type { IndexSync, ListPage } from './write/sync';

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

/** What the supervisor's steps share: its deps and the index's state, which only these steps change. */
type Supervision = {
  deps: ServiceDeps;
  owner: string;
  running: Running | null;
  /** Why the index is off by its own doing (turned off, another replica's secret), and until when. */
  offReason: string | null;
  offUntil: number;
  /** The last failure to open the store on an open database (not the database's own). */
  lastFailure: unknown;
  /** The open under way, if any: concurrent callers share it. */
  opening: Promise<void> | null;
  lastHealthCheck: number;
  /** Handed over or stopped: the index is not opened again. */
  stopped: boolean;
  /** Called whenever `running` changes. */
  changed: Set<() => void>;
};

export function createSupervisor(deps: ServiceDeps, owner: string) {
  const state: Supervision = {
    deps,
    owner,
    running: null,
    offReason: null,
    offUntil: 0,
    lastFailure: null,
    opening: null,
    lastHealthCheck: -Infinity,
    stopped: false,
    changed: new Set(),
  };
  return {
    owner,
    disabledReason: (): string | null => disabledBy(deps),
    current: (): Running | null => state.running,
    /** Called when the running index changes (opened, dropped): the status cache forgets. */
    onChange(listener: () => void) {
      state.changed.add(listener);
    },
    /** Opens the index when it may be (idempotent; concurrent callers share one open). */
    ensureOpen(): Promise<void> {
      return openWhenAllowed(state);
    },
    /** When the loop should look again while the index is off: the database's retry time or ours. */
    retryAt(): number {
      return Math.max(state.offUntil, deps.database.failure()?.until ?? 0);
    },
    /** Why the index is off, for its status; null while it runs. */
    offReason(): string | null {
      return whyOff(state);
    },
    opening: () => state.opening,
    /**
     * The file we opened is still the file at INDEX_PATH (not deleted or replaced under us); on PostgreSQL,
     * the rows are still written with our secret (a replica with another INDEX_SECRET rebuilds them at its
     * start: this one then stops writing tokens nobody can match, and says why, until it is restarted).
     */
    checkHealth(): Promise<void> {
      return checkHealthOf(state);
    },
    /** A store error met anywhere (sync, backfill, a query): the database acts on it; the index follows. */
    fault(error: unknown): Promise<void> {
      return handleFault(state, error);
    },
    /** Stops syncing and gives the lease up, leaving the store open for reads (the process is ending). */
    async handOver(): Promise<void> {
      state.stopped = true;
      await state.running?.sync.stop();
    },
    async stop(): Promise<void> {
      state.stopped = true;
      await drop(state, true);
    },
  };
}

export type Supervisor = ReturnType<typeof createSupervisor>;

function disabledBy(deps: ServiceDeps): string | null {
  if (!deps.index.enabled) return 'The index is turned off (INDEX=off). Search and filters are unavailable.';
  if (!deps.sandbox && !deps.index.secret)
    return 'Set INDEX_SECRET (at least 32 characters) to turn on search and filters.';
  return null;
}

function setRunning(s: Supervision, next: Running | null): void {
  s.running = next;
  for (const listener of s.changed) listener();
}

async function openWhenAllowed(s: Supervision): Promise<void> {
  const { database, clock, log } = s.deps;
  if (s.running || s.stopped || disabledBy(s.deps) || clock.now() < s.offUntil) return;
  s.opening ??= open(s)
    .catch((error: unknown) => {
      // The database's own failure is logged by the database; the index's, here.
      if (!database.failure()) log.error({ code: codeOf(error), database: database.where }, 'index: cannot open');
      s.lastFailure = error;
    })
    .finally(() => {
      s.opening = null;
    });
  await s.opening;
}

async function open(s: Supervision): Promise<void> {
  const running = await openRunning(s.deps, s.owner);
  s.lastFailure = null;
  setRunning(s, running);
  s.deps.log.info({ opened: running.store.opened }, 'index: open');
}

/** Drops the running index (its sync stopped; awaited unless the database may hang). */
async function drop(s: Supervision, wait: boolean): Promise<void> {
  const current = s.running;
  setRunning(s, null);
  if (!current) return;
  // The store's own thread (a first scan's preparing) ends with it, at once: a step under way then prepares
  // what it was waiting for itself and ends. The database is the runtime's, left open.
  const stop = Promise.all([current.sync.stop(), current.store.close()]).catch(() => {});
  if (wait) await stop;
}

/** Closes the index and stays off for `forMs` (then the next use or loop opens it again), saying why. */
async function turnOff(s: Supervision, reason: string, forMs: number): Promise<void> {
  s.offReason = reason;
  s.offUntil = s.deps.clock.now() + forMs;
  await drop(s, false);
}

/** The first that holds: turned off, off by our doing, the database's failure, the index's last failure. */
function whyOff(s: Supervision): string | null {
  const { database, clock } = s.deps;
  if (s.running) return null;
  const held = database.failure();
  return (
    disabledBy(s.deps) ??
    (clock.now() < s.offUntil ? s.offReason : null) ??
    (held ? describeOpenFailure(held.error, database) : null) ??
    (s.lastFailure ? describeOpenFailure(s.lastFailure, database) : null)
  );
}

/** The supervisor's `checkHealth`, at most once per HEALTH_CHECK_MS. */
async function checkHealthOf(s: Supervision): Promise<void> {
  const { database, clock, log } = s.deps;
  if (!s.running || clock.now() - s.lastHealthCheck < HEALTH_CHECK_MS) return;
  s.lastHealthCheck = clock.now();
  if (database.target.kind === 'postgres') {
    if (await s.running.store.sameSecret()) return;
    await turnOff(
      s,
      'Another replica rebuilt the shared index with a different INDEX_SECRET. Give every replica the same INDEX_SECRET and restart this one; search and filters are off here until then.',
      Infinity,
    );
    log.error({}, 'index: another replica rebuilt the shared index with a different INDEX_SECRET; off');
    return;
  }
  if (!database.replaced()) return;
  await drop(s, true);
  await database.reopen('the index file was deleted or replaced');
  await openWhenAllowed(s);
}

/** A damaged store is rebuilt at once; an unwritable or unreachable one waits for the database's retry. */
async function handleFault(s: Supervision, error: unknown): Promise<void> {
  const { database, log } = s.deps;
  const kind = storeFault(error);
  if (kind === 'damaged') {
    await drop(s, true);
    await database.fault(error);
    await openWhenAllowed(s);
  } else if (kind === 'unwritable' || kind === 'unreachable') {
    await drop(s, false);
    await database.fault(error);
  } else log.error({ code: codeOf(error) }, 'index: store error');
}
