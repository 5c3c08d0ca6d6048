import type { Collection } from '@/lib/api/schemas';
import { fieldLabel, label } from '@/lib/format/labels';
import { formatAmount } from '@/lib/format/money';

/**
 * "Copy as support note" (contract section 9): a collection as plain text,
 * ready to paste into a ticket reply. Times in UTC, amounts as the dashboard
 * shows them, enum values by their labels; no id but the collection's own.
 */
export type NoteInput = Pick<
  Collection,
  'id' | 'reference' | 'amount' | 'status' | 'createdAt' | 'completedAt' | 'payable' | 'followUp' | 'expiresIn'
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
    expiresIn: c.expiresIn,
    // How to pay: the options as the record carries them (a link's URL, a virtual account's bank and number).
    payable: { enabled: c.payable.enabled, methods: c.payable.methods, options: c.payable.options },
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

/** A value of an open shape as words: text as it is, yes/no, "none", anything else as compact JSON. */
function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/**
 * One payment option (contract section 1: its shape is open) as a line: the method's label, then every other
 * key by its field label, in the order given ("Payment link — URL: https://…; Reusable: no").
 */
function optionLine(option: unknown, n: number): string {
  if (option === null || typeof option !== 'object' || Array.isArray(option))
    return `- Option ${n}: ${valueText(option)}`;
  const { method, ...rest } = option as Record<string, unknown>;
  const head = typeof method === 'string' && method ? label(method).text : `Option ${n}`;
  const parts = Object.entries(rest).map(([key, value]) => `${fieldLabel(key)}: ${valueText(value)}`);
  return `- ${head}${parts.length ? ` — ${parts.join('; ')}` : ''}`;
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
    c.payable.options.length ? 'How to pay:' : 'How to pay: no payment details on this collection',
    ...c.payable.options.map((option, i) => optionLine(option, i + 1)),
    // As the API gives it: it names no unit, so none is invented.
    `Expires in: ${c.expiresIn}`,
    f.enabled
      ? `Follow-up: on, ${label(f.cadence).text} via ${words(f.channels)}, tone ${label(f.tone).text}, starts after ${f.startAfter}`
      : 'Follow-up: off',
    c.metadata.length ? 'Line items:' : 'Line items: none',
    ...c.metadata.map((item) => `- ${item.name || '(unnamed)'} × ${item.quantity}: ${money(item.amount)}`),
    `Dashboard: ${options.link}`,
  ];
  return lines.join('\n');
}
