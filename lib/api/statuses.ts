/**
 * What a status means to someone collecting money (contract section 1): paid, still waiting, or over without
 * payment (`failed` apart: something went wrong). The statuses payment APIs commonly send; any other value
 * means nothing we could claim: `null`, shown neutral and verbatim, and reported as drift.
 */
export type StatusMeaning = 'paid' | 'waiting' | 'ended' | 'failed';

const MEANINGS: Record<string, StatusMeaning> = {
  completed: 'paid',
  paid: 'paid',
  succeeded: 'paid',
  pending: 'waiting',
  on_hold: 'waiting',
  processing: 'waiting',
  cancelled: 'ended',
  canceled: 'ended',
  expired: 'ended',
  failed: 'failed',
};

export function statusMeaning(status: string): StatusMeaning | null {
  return Object.hasOwn(MEANINGS, status) ? MEANINGS[status]! : null;
}
