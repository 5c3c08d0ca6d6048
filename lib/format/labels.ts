/**
 * Friendly labels for enum values: the ones the seed names (contract section 1)
 * and the statuses payment APIs commonly send (`completed`, `on_hold`, …), which
 * carry a meaning (below). Any other value is shown verbatim, in a neutral
 * style: `known` says which.
 */
const LABELS: Record<string, string> = {
  // status
  pending: 'Pending',
  on_hold: 'On hold',
  processing: 'Processing',
  completed: 'Completed',
  paid: 'Paid',
  succeeded: 'Succeeded',
  cancelled: 'Cancelled',
  canceled: 'Canceled',
  expired: 'Expired',
  failed: 'Failed',
  // type
  integrated: 'Integrated',
  // payable.methods
  payment_link: 'Payment link',
  virtual_account: 'Virtual account',
  // followUp.channels
  whatsapp: 'WhatsApp',
  sms: 'SMS',
  // followUp.cadence
  every_10m: 'Every 10 minutes',
  // followUp.tone
  gentle: 'Gentle',
};

export type Label = { text: string; known: boolean };

export function label(value: string): Label {
  const text = Object.hasOwn(LABELS, value) ? LABELS[value] : undefined;
  return text ? { text, known: true } : { text: value, known: false };
}

export function labels(values: readonly string[]): Label[] {
  return values.map(label);
}

// What a status means (paid, waiting, ended, failed) is the contract's: lib/api/statuses.ts.
export { statusMeaning, type StatusMeaning } from '@/lib/api/statuses';

const WORDS: Record<string, string> = { id: 'ID', url: 'URL', iban: 'IBAN', bic: 'BIC', sms: 'SMS', ussd: 'USSD' };

/** A field name as a label: `bankName` → "Bank name", `expires_at` → "Expires at", `url` → "URL". */
export function fieldLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((w) => WORDS[w.toLowerCase()] ?? w.toLowerCase());
  if (!words.length) return key;
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
