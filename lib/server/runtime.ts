import 'server-only';
import { resolve } from 'node:path';
import { collectionListEnvelopeSchema } from '@/lib/api/envelopes';
import { createAuditLog } from './audit/log';
import { systemClock, type Clock } from './clock';
import { systemContext } from './context';
import { createDatabase, ownReads } from './database/database';
import { getConfig, type DatabaseTarget, type ServerConfig } from './env';
import { logFormat, logger } from './logger';
import { createDriftCollector } from './observability/drift';
import { registerScrapeGauges } from './observability/gauges';
import { createMetrics } from './observability/metrics';
import { createPageParser } from './parsing/page-parser';
import { createIndexService } from './search-index/service';
import { createUpstreamClient } from './upstream';
import { createViews } from './views/service';

/**
 * What the server is made of, built once per process: the application's database, the upstream client,
 * the metrics registry, the drift report, the audit log and the search index, each handed what it needs.
 * Every piece of process-wide state is named at the end of this file. `runtime()` is called once per
 * request, by `apiRoute` / `openRoute` (lib/server/route.ts), proxy.ts or a page, and handed down: route
 * handlers, `reads/*`, `export/` and the data layer receive it as an argument (tests pass a fake).
 *
 *   config ─▶ database ─┬─▶ audit log      (its entries wait in memory while the database is away)
 *                       ├─▶ drift report   (fed by the upstream client's answers)
 *                       ├─▶ index ◀── upstream client ──▶ metrics
 *                       └─▶ saved views ──▶ (their counts from the index)
 *
 * Background work (the index's sync, the audit log's flushes, the drift report's) starts with `start()`,
 * at server start (instrumentation.ts), never during `next build`.
 */
export function buildRuntime(config: ServerConfig, clock: Clock = systemClock) {
  const log = logger;
  const target: DatabaseTarget =
    config.database.kind === 'sqlite' ? { kind: 'sqlite', path: resolve(config.database.path) } : config.database;
  const database = createDatabase({ target, clock, log });
  const metrics = createMetrics({ enabled: config.metricsToken !== null, now: clock.now });
  const drift = createDriftCollector({ database: database.available, reads: database.readable, clock, log });
  // List pages are decoded, parsed and checked on a thread of their own (~2 ms of the request thread a page).
  const pages = createPageParser();
  const upstream = createUpstreamClient({
    ...config.upstream,
    parse: pages.parse,
    observe: {
      // A bystander: what the seed does not describe is noted, never thrown into a read.
      answer: (operation, envelope) => {
        try {
          drift.observeAnswer(operation, envelope);
        } catch {
          // the report is a bystander
        }
      },
      read: metrics.recordUpstream,
    },
  });
  const audit = createAuditLog({
    database: database.available,
    now: clock.now,
    log,
    echo: logFormat() === 'json',
    retentionDays: config.auditRetentionDays,
    setTimer: (fn, ms) => {
      clock.after(ms, fn);
      return {};
    },
  });
  const index = createIndexService({
    index: config.index,
    sandbox: config.upstream.sandbox,
    upstream: config.upstream,
    database,
    clock,
    log,
    url: config.dashboardUrl ?? (process.env.PORT ? `http://localhost:${process.env.PORT}` : undefined),
    readPage: (page, limit, cancel) =>
      upstream.get({ kind: 'list', page, limit }, collectionListEnvelopeSchema, systemContext('index-sync'), cancel),
    usersActive: () => metrics.usersWithin(1_000),
  });
  // Saved views: the database's, with counts from the index (or the upstream's list for a whole-list view).
  const views = createViews({
    database: () => database.open().then((c) => c.db),
    reads: () => database.open().then((c) => ownReads(c, { first: true })),
    index,
    clock,
    upstreamKey: config.upstream.key,
  });
  const runtime = {
    config,
    clock,
    database,
    metrics,
    drift,
    upstream,
    audit,
    index,
    views,
    /** Starts the background work (idempotent). */
    start() {
      index.start();
    },
    /** Ends the background work and closes the database (tests; a process simply exits). */
    async stop() {
      await index.stop();
      await pages.close();
      await audit.flush();
      await drift.flush();
      await database.close();
    },
  };
  registerScrapeGauges(runtime);
  return runtime;
}

export type Runtime = ReturnType<typeof buildRuntime>;

/**
 * The process-wide state, all of it. Next.js bundles instrumentation, proxy.ts and each route apart, each
 * with its own copy of a module, so what must be one per process is kept on `globalThis` under a registered
 * symbol, through `processSlot` and nowhere else:
 *
 * - `runtime`: what `buildRuntime` made, built on first use from the environment's configuration.
 * - `page-status`: each HTTP request's response at hand (an AsyncLocalStorage), so a page whose upstream read
 *   failed answers the status `/api` gives (page-status.ts); it is filled by the one patch of Node's
 *   `http.Server.prototype.emit`, installed once by instrumentation.ts at start.
 *
 * Besides these, instrumentation.ts sets V8's heap growth for every isolate (heap.ts) and `getConfig()`
 * keeps the parsed environment per module copy (the same values in each).
 */
export type ProcessSlot = 'runtime' | 'page-status';

export function processSlot<T>(name: ProcessSlot, make: () => T): T {
  const global = globalThis as Record<symbol, T | undefined>;
  return (global[Symbol.for(`collections-console.${name}`)] ??= make());
}

/** The process's runtime, built on first use from the environment's configuration. */
export function runtime(): Runtime {
  return processSlot('runtime', () => buildRuntime(getConfig()));
}
