import 'server-only';
import { auditLog } from '../audit/audit';
import { indexService } from '../search-index/service';
import { driftReport } from './drift';
import { registerGauge } from './metrics';

/**
 * What Prometheus reads at each scrape rather than on each request: the index's
 * rows, coverage, lag and state, and the audit log's writes, failures, drops and
 * backlog (lib/server/audit/log.ts keeps them counted).
 */
export function registerScrapeGauges() {
  registerGauge('dashboard_index_rows', 'Collections in the search index', [], async (g) => {
    g.set((await indexService().status()).indexed);
  });
  registerGauge('dashboard_index_coverage_ratio', 'Indexed rows over the upstream count (0-1)', [], async (g) => {
    g.set((await indexService().status()).coverage);
  });
  registerGauge('dashboard_index_lag_seconds', 'Age of the index’s newest look at the upstream', [], async (g) => {
    const { asOf } = await indexService().status();
    g.set(asOf ? Math.max(0, (Date.now() - Date.parse(asOf)) / 1000) : -1);
  });
  registerGauge('dashboard_index_state', 'The index’s state (1 for the current one)', ['state'], async (g) => {
    const { state } = await indexService().status();
    for (const s of ['off', 'building', 'ready', 'error']) g.set({ state: s }, s === state ? 1 : 0);
  });
  registerGauge(
    'dashboard_drift_entries',
    'Schema-drift report rows: fields and values the seed does not describe',
    ['kind'],
    async (g) => {
      const report = await driftReport();
      g.set({ kind: 'field' }, report.filter((d) => d.kind === 'field').length);
      g.set({ kind: 'value' }, report.filter((d) => d.kind === 'value').length);
    },
  );
  registerGauge('dashboard_audit_entries', 'Audit log entries by what became of them', ['fate'], (g) => {
    const c = auditLog().counters();
    g.set({ fate: 'written' }, c.written);
    g.set({ fate: 'dropped' }, c.dropped);
    g.set({ fate: 'pending' }, c.pending);
  });
  registerGauge(
    'dashboard_audit_write_failures',
    'Audit batches that could not be written (kept and retried)',
    [],
    (g) => {
      g.set(auditLog().counters().failedWrites);
    },
  );
}
