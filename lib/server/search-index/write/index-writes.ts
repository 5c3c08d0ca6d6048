import 'server-only';
import type { SyncRows } from './store-lease';
import type { IndexMaintenance } from './store-maintenance';
import type { IndexRecords } from './store-records';

/**
 * What the sync (sync.ts and its sync-*.ts) may do with the index's store: write and remove records (store-records.ts), keep
 * its own rows and lease on the database's clock (store-lease.ts, `now` among them), and the upkeep it runs
 * as a full scan completes (store-maintenance.ts). The store's other members (the backfills the service
 * runs, opening and closing it) stay out, so a sync cannot reach them; a request's reads are `IndexReads`
 * (read/context.ts).
 */
export interface IndexWrites
  extends
    IndexRecords,
    SyncRows,
    Pick<IndexMaintenance, 'indexedCount' | 'analyze' | 'scanCompleted' | 'pruneHistory' | 'pruneAccounts'> {}
