import 'server-only';
import type { Metrics } from './metrics';

/**
 * What Prometheus reads at each scrape rather than on each request: the index's
 * rows, coverage, lag and state, the drift report's size, and the audit log's
 * writes, failures, drops and backlog. Registered once by the runtime, which
 * hands in what they read.
 */
type Parts = {
  metrics: Metrics;
  index: { status(): Promise<{ indexed: number; coverage: number; asOf: string | null; state: string }> };
  drift: { report(): Promise<{ entries: { kind: string; baseline: boolean }[] }> };
  audit: { counters(): { written: number; dropped: number; pending: number; failedWrites: number } };
  clock: { now(): number };
  database: {
    target: { kind: 'sqlite' | 'postgres' };
    checkpoints(): { frames: number; running: boolean } | null;
    reads(): { waiting: number; started: number; waitedMs: number } | null;
  };
};

export function registerScrapeGauges({ metrics, index, drift, audit, clock, database }: Parts) {
  const gauge = metrics.registerGauge;
  gauge('dashboard_index_rows', 'Collections in the search index', [], async (g) => {
    g.set((await index.status()).indexed);
  });
  gauge('dashboard_index_coverage_ratio', 'Indexed rows over the upstream count (0-1)', [], async (g) => {
    g.set((await index.status()).coverage);
  });
  gauge('dashboard_index_lag_seconds', 'Age of the index’s newest look at the upstream', [], async (g) => {
    const { asOf } = await index.status();
    g.set(asOf ? Math.max(0, (clock.now() - Date.parse(asOf)) / 1000) : -1);
  });
  gauge('dashboard_index_state', 'The index’s state (1 for the current one)', ['state'], async (g) => {
    const { state } = await index.status();
    for (const s of ['off', 'building', 'ready', 'error']) g.set({ state: s }, s === state ? 1 : 0);
  });
  gauge(
    'dashboard_drift_entries',
    'Schema-drift report rows: fields and values the seed does not describe',
    ['kind'],
    async (g) => {
      const { entries } = await drift.report();
      g.set({ kind: 'field' }, entries.filter((d) => d.kind === 'field').length);
      g.set({ kind: 'value' }, entries.filter((d) => d.kind === 'value').length);
    },
  );
  gauge(
    'dashboard_drift_new_entries',
    'Schema-drift report rows new since the baseline (the first whole sync) and not acknowledged: worth a look',
    ['kind'],
    async (g) => {
      const { entries } = await drift.report();
      const fresh = entries.filter((d) => !d.baseline);
      g.set({ kind: 'field' }, fresh.filter((d) => d.kind === 'field').length);
      g.set({ kind: 'value' }, fresh.filter((d) => d.kind === 'value').length);
    },
  );
  gauge('dashboard_audit_entries', 'Audit log entries by what became of them', ['fate'], (g) => {
    const c = audit.counters();
    g.set({ fate: 'written' }, c.written);
    g.set({ fate: 'dropped' }, c.dropped);
    g.set({ fate: 'pending' }, c.pending);
  });
  if (database.target.kind === 'sqlite') {
    gauge(
      'dashboard_sqlite_checkpoint_thread',
      "Whether the SQLite WAL checkpoints run on their own thread (1), or are back on the writer's (0)",
      [],
      (g) => {
        g.set(database.checkpoints()?.running ? 1 : 0);
      },
    );
    gauge(
      'dashboard_sqlite_checkpoint_frames',
      'WAL frames (pages) the checkpoints thread copied into the SQLite file since the database opened',
      [],
      (g) => {
        g.set(database.checkpoints()?.frames ?? 0);
      },
    );
    gauge('dashboard_sqlite_read_queue', 'Index reads waiting for the SQLite reads thread now', [], (g) => {
      g.set(database.reads()?.waiting ?? 0);
    });
    gauge(
      'dashboard_sqlite_reads',
      'Index reads the SQLite reads thread started since the database opened',
      [],
      (g) => {
        g.set(database.reads()?.started ?? 0);
      },
    );
    gauge(
      'dashboard_sqlite_read_wait_seconds',
      'Seconds those reads waited for the thread, in all (divided by dashboard_sqlite_reads: the mean wait)',
      [],
      (g) => {
        g.set((database.reads()?.waitedMs ?? 0) / 1000);
      },
    );
  }
  gauge('dashboard_audit_write_failures', 'Audit batches that could not be written (kept and retried)', [], (g) => {
    g.set(audit.counters().failedWrites);
  });
}
