/**
 * Friendly labels for the enum values the seed names (contract section 1).
 * Any other value is shown verbatim, in a neutral style: `known` says which.
 */
const LABELS: Record<string, string> = {
  // status
  pending: 'Pending',
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
