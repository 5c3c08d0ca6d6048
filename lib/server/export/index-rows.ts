import 'server-only';
import { sealAad, type BlindKeys } from '../search-index/shared/blind';
import type { ExportRow } from '../search-index/read';
import type { ExportRecord } from './csv';

/** An index row as the export writes it, its contact opened (e-mail and phone only when asked for). */
export function fromIndexRow(row: ExportRow, keys: BlindKeys, accountKey: string, contacts: boolean): ExportRecord {
  let contact: ExportRecord['contact'] = { firstName: '', lastName: '' };
  try {
    const opened = keys.open(row.contact_sealed, sealAad(accountKey, row.id));
    contact = contacts
      ? { firstName: opened.firstName, lastName: opened.lastName, email: opened.email, phone: opened.phone }
      : { firstName: opened.firstName, lastName: opened.lastName };
  } catch {
    // Sealed under another secret: written without a contact, rebuilt by the next scan.
  }
  return {
    id: row.id,
    reference: row.reference,
    status: row.status,
    type: row.type,
    amount: { value: Number(row.amount_value), currency: row.currency },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
    contact,
    lineItemCount: Number(row.line_item_count),
    methods: row.methods ? (JSON.parse(row.methods) as string[]) : null,
    followUp: row.follow_up ? (JSON.parse(row.follow_up) as { enabled: boolean; channels: string[] }) : null,
    ...(row.tags ? { tags: row.tags.split(';').sort() } : {}),
  };
}
