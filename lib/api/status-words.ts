import { statusMeaning, type StatusMeaning } from './statuses';

/**
 * The words people use for a status (issue 75): "paid" where the API says `completed`, "unpaid" for
 * `pending`. A status the account's data does not hold is answered with the ones it does that mean the same,
 * and a search for a status word is offered the status filter. Plain TypeScript, shared by pages.
 */
const SPOKEN: Record<string, StatusMeaning> = {
  paid: 'paid',
  complete: 'paid',
  completed: 'paid',
  success: 'paid',
  successful: 'paid',
  succeeded: 'paid',
  settled: 'paid',
  unpaid: 'waiting',
  pending: 'waiting',
  open: 'waiting',
  waiting: 'waiting',
  outstanding: 'waiting',
  processing: 'waiting',
  expired: 'ended',
  cancelled: 'ended',
  canceled: 'ended',
  closed: 'ended',
  void: 'ended',
  failed: 'failed',
  failure: 'failed',
  declined: 'failed',
  error: 'failed',
};

export type HeldStatus = { value: string; count: number };

/** What a word for a status means, as the API's statuses or as people say it; null for any other word. */
export function meaningOfWord(word: string): StatusMeaning | null {
  const w = word
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return statusMeaning(w) ?? (Object.hasOwn(SPOKEN, w) ? SPOKEN[w]! : null);
}

/** The held statuses that mean what `word` means (most collections first); none for a word of no meaning. */
export function statusesMeaning(word: string, held: readonly HeldStatus[]): HeldStatus[] {
  const meaning = meaningOfWord(word);
  if (!meaning) return [];
  return held.filter((s) => statusMeaning(s.value) === meaning).sort((a, b) => b.count - a.count);
}

/** The asked statuses the data does not hold, each with the held ones that mean the same. */
export function missingStatuses(asked: readonly string[], held: readonly HeldStatus[]) {
  const holds = new Set(held.map((s) => s.value));
  return asked.filter((a) => !holds.has(a)).map((asked) => ({ asked, instead: statusesMeaning(asked, held) }));
}
