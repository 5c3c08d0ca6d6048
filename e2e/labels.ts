/**
 * What a user should read for an enum value: the labels for the values the
 * contract names (section 1) and the statuses commonly sent (issue 15); any
 * other value verbatim. Written out here, not imported from the app, so the
 * specs check the app rather than repeat it.
 */
const LABELS: Record<string, string> = {
  pending: 'Pending',
  on_hold: 'On hold',
  completed: 'Completed',
  cancelled: 'Cancelled',
  expired: 'Expired',
  failed: 'Failed',
  integrated: 'Integrated',
  payment_link: 'Payment link',
  virtual_account: 'Virtual account',
  whatsapp: 'WhatsApp',
  sms: 'SMS',
  every_10m: 'Every 10 minutes',
  gentle: 'Gentle',
};

export const labelOf = (value: string) => (Object.hasOwn(LABELS, value) ? LABELS[value]! : value);
