import type { Collection } from '@/lib/api/schemas';
import { label } from '@/lib/format/labels';
import { formatAmount } from '@/lib/format/money';

/**
 * "Copy as support note" (contract section 9): a collection as plain text,
 * ready to paste into a ticket reply. Times in UTC, amounts as the dashboard
 * shows them, enum values by their labels; no id but the collection's own.
 */
export type NoteInput = Pick<
  Collection,
  'id' | 'reference' | 'amount' | 'status' | 'createdAt' | 'completedAt' | 'payable' | 'followUp'
> & {
  contact: Pick<Collection['contact'], 'firstName' | 'lastName'>;
  metadata: Array<Pick<Collection['metadata'][number], 'name' | 'quantity' | 'amount'>>;
};

/** Only what the note uses, so a page hands the browser no more of the record than that. */
export function noteInput(c: Collection): NoteInput {
  return {
    id: c.id,
    reference: c.reference,
    amount: c.amount,
    status: c.status,
    createdAt: c.createdAt,
    completedAt: c.completedAt,
    contact: { firstName: c.contact.firstName, lastName: c.contact.lastName },
    payable: { enabled: c.payable.enabled, methods: c.payable.methods, options: [] },
    followUp: {
      enabled: c.followUp.enabled,
      startAfter: c.followUp.startAfter,
      cadence: c.followUp.cadence,
      channels: c.followUp.channels,
      tone: c.followUp.tone,
    },
    metadata: c.metadata.map((item) => ({ name: item.name, quantity: item.quantity, amount: item.amount })),
  };
}

/** "2026-06-30 14:05 UTC", whatever offset the upstream wrote. */
export function utcMinute(iso: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const words = (values: string[]) => (values.length ? values.map((v) => label(v).text).join(', ') : 'none');

export function supportNote(c: NoteInput, options: { minorUnits: boolean; link: string }): string {
  const money = (amount: NoteInput['amount']) => formatAmount(amount, { minorUnits: options.minorUnits });
  const name = `${c.contact.firstName} ${c.contact.lastName}`.trim() || '(no name)';
  const f = c.followUp;
  const lines = [
    `Collection ${c.reference || '(no reference)'}`,
    `Amount: ${money(c.amount)}`,
    `Status: ${label(c.status).text}`,
    `Created: ${utcMinute(c.createdAt)}`,
    `Completed: ${c.completedAt ? utcMinute(c.completedAt) : 'not completed'}`,
    `Contact: ${name}`,
    `Payment methods: ${words(c.payable.methods)}${c.payable.enabled ? '' : ' (payment switched off)'}`,
    f.enabled
      ? `Follow-up: on, ${label(f.cadence).text} via ${words(f.channels)}, tone ${label(f.tone).text}, starts after ${f.startAfter}`
      : 'Follow-up: off',
    c.metadata.length ? 'Line items:' : 'Line items: none',
    ...c.metadata.map((item) => `- ${item.name || '(unnamed)'} × ${item.quantity}: ${money(item.amount)}`),
    `Dashboard: ${options.link}`,
  ];
  return lines.join('\n');
}
