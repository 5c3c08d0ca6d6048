import 'server-only';
import type { AppDatabase } from '../../database/schema';
import type { StoreContext } from './store-context';

/**
 * The sync's own rows: its checkpoint and figures (`sync_state`), and the lease that lets one process of
 * several read the upstream (`sync_lease`; sync.ts takes and renews it).
 */
export type SyncState = AppDatabase['sync_state'];

/**
 * How often the replica that syncs an account marks it in use (`accounts.opened_at`): pruning deletes an
 * account no replica used for days (INDEX_ACCOUNT_RETENTION_DAYS), and a replica that ran longer than that
 * without a restart had its own account's rows deleted under it by another account's sync.
 */
const IN_USE_EVERY_MS = 3_600_000;

/** The sync's rows and lease of one account's store (`createSyncRows`). */
export type SyncRows = ReturnType<typeof createSyncRows>;

export function createSyncRows({ db, account, connection, now: databaseNow }: StoreContext) {
  /** When this process last marked the account in use (the database's clock). */
  let markedInUse = -Infinity;
  return {
    /** The database's time in ms (database/clock.ts): the one clock of the lease and of when rows were seen. */
    now: databaseNow,
    state: (): Promise<SyncState> =>
      db.selectFrom('sync_state').selectAll().where('account', '=', account).executeTakeFirstOrThrow(),
    async saveState(patch: Partial<Omit<SyncState, 'account'>>): Promise<void> {
      await db.updateTable('sync_state').set(patch).where('account', '=', account).execute();
    },
    /**
     * Takes or renews the sync lease for `ttlMs`; false while another live process holds it. Its expiry is
     * on the database's clock, so a replica whose own clock runs minutes ahead never finds a live lease lapsed.
     */
    async lease(owner: string, ttlMs: number): Promise<boolean> {
      const now = await databaseNow();
      await db
        .insertInto('sync_lease')
        .values({ account, owner, expires_at: now + ttlMs })
        .onConflict((oc) =>
          oc
            .column('account')
            .doUpdateSet({ owner, expires_at: now + ttlMs })
            .where((eb) => eb.or([eb('sync_lease.owner', '=', owner), eb('sync_lease.expires_at', '<', now)])),
        )
        .execute();
      const row = await db.selectFrom('sync_lease').select('owner').where('account', '=', account).executeTakeFirst();
      const held = row?.owner === owner;
      if (held && now - markedInUse >= IN_USE_EVERY_MS) {
        await db
          .updateTable('accounts')
          .set({ opened_at: new Date(now).toISOString() })
          .where('id', '=', account)
          .execute();
        markedInUse = now;
      }
      return held;
    },
    /** Gives the lease up (a clean stop), so another process need not wait for it to lapse. */
    async release(owner: string): Promise<void> {
      await db.deleteFrom('sync_lease').where('account', '=', account).where('owner', '=', owner).execute();
    },
    /** The same, synchronously: for a process's `exit` event, where nothing asynchronous runs. */
    releaseNow(owner: string): void {
      // PostgreSQL cannot be reached synchronously: there the lease lapses on its own (sync.ts LEASE_TTL_MS),
      // unless a signal handler let the service release it first.
      if (!connection.runNow) return;
      const { sql: text, parameters } = db
        .deleteFrom('sync_lease')
        .where('account', '=', account)
        .where('owner', '=', owner)
        .compile();
      try {
        connection.runNow(text, parameters);
      } catch {
        // Closed already, or the disk is gone: the lease lapses on its own.
      }
    },
  };
}
