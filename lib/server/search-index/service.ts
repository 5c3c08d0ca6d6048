import 'server-only';
import { holdExit } from '../shutdown';
import { randomBytes } from 'node:crypto';
import type { Collection } from '@/lib/api/schemas';
import { AppError } from '../errors';
import type { RequestContext } from '../context';
import type { DatabaseTarget } from '../database/connect';
import type { IndexQueries } from './read';
import { createRunner } from './service-runner';
import { createStatusReader } from './service-status';
import { createSupervisor, type ServiceDeps } from './service-supervisor';

/**
 * The index as the server runs it (the runtime builds one per process): opened on the application's
 * database, its sync looping in the background off the request path (service-runner.ts), live reads
 * written through, and a status everyone can ask for (service-status.ts). What keeps it open, or says why
 * it is off, is service-supervisor.ts. Several replicas on one PostgreSQL share the rows, and the sync's
 * lease (sync.ts) lets one of them read the upstream.
 */
export type { IndexState, IndexStatus } from './service-status';
export type { ServiceDeps } from './service-supervisor';

export function createIndexService(deps: ServiceDeps) {
  const { clock, log } = deps;
  const supervisor = createSupervisor(deps, `${process.pid}-${randomBytes(4).toString('hex')}`);
  const runner = createRunner({ supervisor, clock, usersActive: deps.usersActive });
  const reader = createStatusReader({ supervisor, clock });
  let started = false;

  /** The longest a process's exit waits for its hand-over (a write of a page, then the lease given up). */
  const HANDOVER_MAX_MS = 3_000;

  /**
   * Stops syncing and gives the lease up; reads keep working. The loop starts no new turn; the sync's step
   * under way has its upstream request aborted and ends before the lease is given up (so a deploy's signal
   * is a write's time from the hand-over, not a request's), then the loop's turn ends.
   */
  async function handOver(): Promise<void> {
    const loop = runner.stop();
    await supervisor.handOver();
    await loop;
  }

  const service = {
    /** Starts the index and its sync (idempotent). The runtime calls it at server start; any use does too. */
    start(): void {
      if (started) return;
      started = true;
      const off = supervisor.disabledReason();
      if (off) {
        log.info({ reason: off }, 'index: off');
        return;
      }
      // A restart (deploy, container stop) hands the sync over at once instead of after the lease lapses.
      process.once('exit', () => supervisor.current()?.store.releaseNow(supervisor.owner));
      // On PostgreSQL nothing can be asked at 'exit': the lease is given up at the signal, while Next.js
      // closes its server, so another replica takes the sync at its next ask (5 s), not when the lease
      // lapses (20 s). Only beside a handler that ends the process (Next.js's own, registered before this
      // runs): alone, a listener would keep SIGTERM from ending it.
      // Its exit is held until the hand-over is done (at most HANDOVER_MAX_MS): the step under way may be
      // writing a page, and the lease is given up after it.
      for (const signal of ['SIGTERM', 'SIGINT'] as const)
        if (process.listenerCount(signal) > 0) process.once(signal, () => holdExit(handOver(), HANDOVER_MAX_MS));
      runner.start();
    },

    async status() {
      service.start();
      return reader.status();
    },

    /** The index's queries, or `index_unavailable` with the reason when it is off. */
    async queries(): Promise<IndexQueries> {
      service.start();
      await supervisor.ensureOpen();
      const running = supervisor.current();
      if (!running)
        throw new AppError(
          'index_unavailable',
          supervisor.offReason() ?? 'Search and filters are unavailable: the index is starting',
        );
      return running.queries;
    },

    /** Each status and currency with its count, for the filter menus. */
    async facets() {
      return reader.facets(await service.queries());
    },

    /**
     * A user's live read, written through in the background (the sync writes what it reads itself). A
     * record the list does not return (not integrated) is indexed too once opened by its id: searchable
     * like every other, counted apart ("opened by id"), and kept by the scans that cannot see it. A list
     * page's `upstreamCount` (its `meta.count`) is written with its rows, as the sync's are. Callers do not
     * wait: the promise (never rejected; a fault goes to the supervisor) is settled once the write landed,
     * for tests on a fake clock whose next reading must include it.
     */
    writeThrough(records: Collection[], context: RequestContext, upstreamCount?: number): Promise<void> {
      const running = supervisor.current();
      if (context.principal.kind === 'system' || !running || !records.length) return Promise.resolve();
      return new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
        // Seen now on the database's clock, which the scans that compare it share (database/clock.ts).
        running.store
          .now()
          .then((now) => running.store.upsert(records, new Date(now).toISOString(), { upstreamCount }))
          .then(
            () => undefined,
            (error: unknown) => void supervisor.fault(error),
          ),
      );
    },

    /**
     * What a reader in another thread needs (the export's worker): the database, the secret its keys come
     * from, and the account's key. Stays in this process; `index_unavailable` when the index is off.
     */
    async readerSpec(): Promise<{ target: DatabaseTarget; secret: string; accountKey: string }> {
      await service.queries();
      const running = supervisor.current()!;
      return { target: deps.database.target, secret: running.secret, accountKey: running.store.accountKey };
    },

    /**
     * Where the index lives (host, port and database, or the file; never credentials) and whether this process
     * runs the sync (null while the index is not open): for /status, where an operator tells the replicas apart.
     */
    whereAndWho(): { store: string; syncing: boolean | null } {
      const running = supervisor.current();
      return { store: deps.database.where, syncing: running ? running.sync.snapshot().leader : null };
    },

    /** For store errors met while answering a query: reopen or turn off as the fault says. */
    storeFault: (error: unknown) => supervisor.fault(error),

    handOver,

    async stop(): Promise<void> {
      await runner.stop();
      await supervisor.stop();
    },
  };
  return service;
}

export type IndexService = ReturnType<typeof createIndexService>;
