import 'server-only';
import type { Kysely } from 'kysely';
import { textType } from '../../database/dialect';

/**
 * Every audit entry names the account it was in (contract section 10, several accounts): the account's id from
 * the configuration; null for what is no account's (signing in and out). Entries written before hold none
 * either: those but signing in and out are the first account's (lib/server/reads/audit.ts), so no row is
 * rewritten here. Read newest first within one account, so the index leads with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_entries').addColumn('account', textType(db)).execute();
  await db.schema.createIndex('audit_entries_account_id').on('audit_entries').columns(['account', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('audit_entries_account_id').execute();
  await db.schema.alterTable('audit_entries').dropColumn('account').execute();
}
