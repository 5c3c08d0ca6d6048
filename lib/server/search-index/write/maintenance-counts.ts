import 'server-only';
import { sql } from 'kysely';
import type { AppDb } from '../../database/connect';
import type { Dialect } from '../../database/dialect';
import type { AppDatabase } from '../../database/schema';
import { openedIdsOnSqlite } from '../shared/opened-ids';

/**
 * The counts of rows the status line and the searches show, read where the searches read (`reads`): never
 * waiting for the sync's transaction in flight on the writer.
 */

/** Rows visible to searches (store-maintenance.ts `IndexMaintenance.indexedCount`). */
export async function indexedCount(reads: AppDb, account: number): Promise<number> {
  // The whole-account roll-up rows count every row once, in the same transactions that write them:
  // a handful of rows to add up, where count(*) reads a million (100-250 ms on PostgreSQL).
  const row = await reads
    .selectFrom('rollups')
    .select(sql<number>`coalesce(sum(created_count), 0)`.as('n'))
    .where('account', '=', account)
    .where('grain', '=', 'a')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Rows of collections the list does not return, indexed because a user opened them by id. */
export async function openedCount(reads: AppDb, dialect: Dialect, account: number): Promise<number> {
  // (By their partial index on SQLite: read otherwise, 100-350 ms of every status line at 350,000 rows
  // of a building index, measured.)
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${openedIdsOnSqlite(account)}`.execute(reads);
    return Number(rows[0]?.n ?? 0);
  }
  const row = await reads
    .selectFrom('collection_details')
    .select(sql<number>`count(*)`.as('n'))
    .where('account', '=', account)
    .where('type', '<>', 'integrated')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The status line's figures (store-maintenance.ts `IndexMaintenance.statusFigures`). */
export type StatusFigures = { state: AppDatabase['sync_state']; indexed: number; openedById: number };

/**
 * The sync's row, the rows indexed and those opened by id, in one statement: one snapshot of the database
 * (SQLite's read transaction of a statement, PostgreSQL's of a statement under READ COMMITTED), so a write
 * committed between two reads can never pair this moment's rows with another moment's count. Three reads side
 * by side paired them, and showed "340 of 339 indexed" while the sandbox's activity added collections.
 */
export async function statusFigures(reads: AppDb, dialect: Dialect, account: number): Promise<StatusFigures> {
  const opened =
    dialect === 'sqlite'
      ? sql<number>`(select count(*) from ${openedIdsOnSqlite(account)})`
      : sql<number>`(select count(*) from collection_details where account = ${account} and type <> 'integrated')`;
  const row = await reads
    .selectFrom('sync_state')
    .selectAll()
    .select((eb) => [
      eb
        .selectFrom('rollups')
        .select(sql<number>`coalesce(sum(created_count), 0)`.as('n'))
        .where('account', '=', account)
        .where('grain', '=', 'a')
        .as('indexed_rows'),
      opened.as('opened_rows'),
    ])
    .where('account', '=', account)
    .executeTakeFirstOrThrow();
  const { indexed_rows: indexed, opened_rows: openedById, ...state } = row;
  return { state, indexed: Number(indexed ?? 0), openedById: Number(openedById) };
}
