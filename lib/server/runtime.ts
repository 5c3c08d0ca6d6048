import 'server-only';
import { resolve } from 'node:path';
import { collectionListEnvelopeSchema } from '@/lib/api/envelopes';
import { createAuditLog, type AuditLog } from './audit/log';
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
import type { Account } from './accounts/config';
import type { Database } from './database/database';
import type { DriftCollector } from './observability/drift';
import type { Metrics } from './observability/metrics';
import type { PageParser } from './parsing/page-parser';
import { createViews } from './views/service';
import { createAnnotations } from './annotations/service';
import { dataSecret } from './data-secret';

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
 *                       ├─▶ saved views ──▶ (their counts from the index)
 *                       └─▶ notes and tags (the index's `tag=` filter reads them beside its rows)
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
  const shared = { config, clock, database, metrics, drift, audit };
  const slices = new Map(config.accounts.map((account) => [account.id, accountSlice(shared, account, pages)]));
  const first = slices.get(config.accounts[0]!.id)!;
  const all = [...slices.values()];
  const scoped = (slice: AccountSlice): Runtime => ({
    ...shared,
    ...slice,
    /** The same runtime for another account (unknown ids are the caller's to refuse first). */
    forAccount(id: string): Runtime {
      return views.get(id) ?? views.get(first.account.id)!;
    },
    /** Every account's slice, in configuration order (the status page, the 403 hint, search of every account). */
    slices: all,
    /** Starts the background work of every account (idempotent). */
    start() {
      for (const each of all) each.index.start();
    },
    /** Ends the background work and closes the database (tests; a process simply exits). */
    async stop() {
      await Promise.all(all.map((each) => each.index.stop()));
      await pages.close();
      await audit.flush();
      await drift.flush();
      await database.close();
    },
  });
  const views = new Map<string, Runtime>([...slices].map(([id, slice]) => [id, scoped(slice)]));
  const runtime = views.get(first.account.id)!;
  registerScrapeGauges(runtime);
  return runtime;
}

type Shared = {
  config: ServerConfig;
  clock: Clock;
  database: Database;
  metrics: Metrics;
  drift: DriftCollector;
  audit: AuditLog;
};

/**
 * One account's part of the runtime: its upstream client (its key, base URL and header), its index (its own
 * sync loop and lease, so a big account's first sync never holds a small one's polls) and its saved views.
 */
function accountSlice(shared: Shared, account: Account, pages: PageParser) {
  const { config, clock, database, metrics, drift } = shared;
  const upstream = createUpstreamClient({
    baseUrl: account.baseUrl,
    key: account.key,
    keyHeader: account.keyHeader,
    timeoutMs: config.upstream.timeoutMs,
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
      read: (operation, outcome, seconds, attempts) =>
        metrics.recordUpstream(operation, outcome, seconds, attempts, account.id),
    },
  });
  const index = createIndexService({
    // INDEX_ACCOUNT labels the one account of a one-account setup; several are each named by their key, and
    // share INDEX_SYNC_RPS equally: nine first syncs cost the pages what one does, and a small account's
    // polls keep their pace beside them (bench/results-accounts.md).
    index: config.multiAccount
      ? { ...config.index, account: null, syncRps: config.index.syncRps / config.accounts.length }
      : config.index,
    sandbox: config.upstream.sandbox,
    upstream: { baseUrl: account.baseUrl, key: account.key },
    database,
    clock,
    log: logger,
    url: config.dashboardUrl ?? (process.env.PORT ? `http://localhost:${process.env.PORT}` : undefined),
    readPage: (page, limit, cancel) =>
      upstream.get(
        { kind: 'list', page, limit },
        collectionListEnvelopeSchema,
        systemContext('index-sync', account.id),
        cancel,
      ),
    usersActive: () => metrics.usersWithin(1_000),
  });
  // Saved views: the database's, with counts from the index (or the upstream's list for a whole-list view).
  const views = createViews({
    database: () => database.open().then((c) => c.db),
    reads: () => database.open().then((c) => ownReads(c, { first: true })),
    index,
    clock,
    upstreamKey: account.key,
  });
  // Notes and tags: the database's, beside saved views, the notes sealed under the data secret.
  const annotations = createAnnotations({
    database: () => database.open().then((c) => c.db),
    reads: () => database.open().then((c) => ownReads(c, { first: true })),
    now: clock.now,
    upstreamKey: account.key,
    secret: () =>
      dataSecret({ secret: config.index.secret, sandbox: config.upstream.sandbox, path: config.index.path }),
  });
  return { account, upstream, index, views, annotations };
}

type AccountSlice = ReturnType<typeof accountSlice>;

/** The runtime as one account's request sees it: what is shared, and that account's upstream, index and views. */
export type Runtime = Shared &
  AccountSlice & {
    forAccount(id: string): Runtime;
    slices: AccountSlice[];
    start(): void;
    stop(): Promise<void>;
  };

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

/**
 * The process's runtime for an account (the first when none is named), built on first use from the environment's
 * configuration. The account is one the caller has already checked the user may see (lib/server/context.ts).
 */
export function runtime(account?: string): Runtime {
  const root = processSlot('runtime', () => buildRuntime(getConfig()));
  return account ? root.forAccount(account) : root;
}
