import 'server-only';
import type { Kysely } from 'kysely';
import { textType } from '../../database/dialect';

/**
 * E-mailed reports and alerts (contract section 17), kept in the application's database beside saved views
 * so every replica sees them and a restart forgets nothing.
 *
 * - `subscriptions`: a person's report of a saved view, keyed by the account's key as views are; its
 *   schedule (JSON), when to send, its recipients (JSON), and `next_due`, the next report's due time
 *   (ISO 8601 UTC), which the scheduler advances in the same transaction that records the delivery.
 * - `deliveries`: one row per report, test or alert and its due time, written before anything is sent:
 *   the key (subject, due, kind) is what makes a report go out once across replicas, restarts and clocks
 *   moved back. A claim (`claimed_by`, `claimed_until`) holds it while one replica sends.
 * - `mail_kept`: on the sandbox without SMTP_URL, what would have been sent (sealed), for `/mail`.
 * - `alert_states`: each alert condition's state per scope (an account), so "Alert:" and "Resolved:" are
 *   mailed once each, and at most once an hour while a condition holds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('subscriptions')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('account', text, (c) => c.notNull())
    .addColumn('owner', text, (c) => c.notNull())
    /** The subscriber's role when they last saved it: `admin` or `viewer` (what the report may show). */
    .addColumn('role', text, (c) => c.notNull())
    /** The subscriber's own address, or null (then the recipients are required). */
    .addColumn('owner_email', text)
    .addColumn('view_id', text, (c) => c.notNull())
    .addColumn('view_name', text)
    .addColumn('schedule', text, (c) => c.notNull())
    .addColumn('send_when', text, (c) => c.notNull())
    .addColumn('above', 'integer')
    .addColumn('recipients', text, (c) => c.notNull())
    .addColumn('attach_csv', 'integer', (c) => c.notNull())
    /** `active`, `paused` (by its subscriber, or because its view cannot be read), or `ended` (unsubscribed). */
    .addColumn('state', text, (c) => c.notNull())
    .addColumn('paused_reason', text)
    .addColumn('next_due', text)
    .addColumn('last_report_at', text)
    .addColumn('last_count', 'integer')
    /** The view's ids at the last report, sealed (for "what entered and left"), when the view is small. */
    .addColumn('last_ids', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscriptions_due').on('subscriptions').columns(['state', 'next_due']).execute();
  await db.schema.createIndex('subscriptions_owner').on('subscriptions').columns(['account', 'owner']).execute();
  await db.schema
    .createTable('deliveries')
    /** A subscription's id, or `alert:<condition>:<scope>`. */
    .addColumn('subject', text, (c) => c.notNull())
    .addColumn('due', text, (c) => c.notNull())
    /** `report`, `test` or `alert`. */
    .addColumn('kind', text, (c) => c.notNull())
    /** `pending`, `sent`, `skipped` or `failed`. */
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', text)
    .addColumn('claimed_by', text)
    .addColumn('claimed_until', text)
    .addColumn('sent_at', text)
    .addColumn('error', text)
    /** JSON: what the report held, why it was skipped, an alert's subject and text. */
    .addColumn('detail', text)
    .addPrimaryKeyConstraint('deliveries_pk', ['subject', 'due', 'kind'])
    .execute();
  await db.schema.createIndex('deliveries_pending').on('deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema
    .createTable('mail_kept')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('at', text, (c) => c.notNull())
    .addColumn('kind', text, (c) => c.notNull())
    /** The message (recipients, subject, text, HTML, headers, attachments' names), sealed. */
    .addColumn('sealed', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mail_kept_at').on('mail_kept').columns(['at']).execute();
  await db.schema
    .createTable('alert_states')
    .addColumn('condition', text, (c) => c.notNull())
    .addColumn('scope', text, (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('since', text, (c) => c.notNull())
    .addColumn('last_mailed_at', text)
    .addColumn('detail', text)
    .addPrimaryKeyConstraint('alert_states_pk', ['condition', 'scope'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['alert_states', 'mail_kept', 'deliveries', 'subscriptions'])
    await db.schema.dropTable(table).execute();
}
