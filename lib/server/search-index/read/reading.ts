import 'server-only';
import { describePhoneReading } from '../shared/phones';
import type { SearchReading } from '@/lib/api/summary';
import type { SearchPlan } from './plan';

/**
 * What a search that found nothing says (contract section 7a): how the text was read, and the next thing
 * to try, each a search of its own. Nothing here is read from the index but the account's countries.
 */
export type Reading = SearchReading;

const quoted = (words: string[]) => words.map((w) => `“${w}”`).join(', ');

export function readingOf(q: string, plan: SearchPlan): Reading {
  const text = q.normalize('NFKC').trim();
  const readAs: string[] = [];
  const next: Reading['next'] = [];
  if (plan.id) readAs.push('a collection id');
  if (plan.phoneReading) {
    const { readings, last4 } = plan.phoneReading;
    if (readings.length) readAs.push(...readings.map(describePhoneReading));
    else readAs.push(`a phone number, ${text} (its country is not one the index has numbers from)`);
    next.push({ q: last4, why: 'its last four digits, in case the number was stored another way' });
  } else if (plan.last4) {
    readAs.push(`the last four digits of a phone number, ${plan.last4}`);
  }
  if (plan.email) {
    readAs.push(`an e-mail address, ${plan.email}`);
    if (plan.emailWords.length)
      next.push({ q: plan.emailWords.join(' '), why: 'the words of the address before the @, whatever its domain' });
  } else if (plan.emailWords.length && !plan.names.length) {
    readAs.push(`words of an e-mail address, ${quoted(plan.emailWords)}`);
  }
  if (plan.names.length) {
    readAs.push(
      `name words ${quoted(plan.names)} (whole, as the start of a longer name, and as they sound), and the same words in e-mail addresses`,
    );
    if (plan.names.length > 1)
      next.push({ q: [...plan.names].sort((a, b) => b.length - a.length)[0]!, why: 'one word of the name alone' });
  }
  if (plan.referenceWhole)
    readAs.push(`a whole reference, “${text}” (too short for a part of one: type at least 3 characters)`);
  else if (plan.fragment !== null) readAs.push(`any part of a reference, “${text}”`);
  else readAs.push(`the start of a reference, “${text}”`);
  if (Array.from(text).length > 6 && !plan.phoneReading && !plan.email)
    next.push({ q: Array.from(text).slice(-5).join(''), why: 'a shorter part of the reference (its end)' });
  return { readAs, next: next.filter((n, i) => n.q && n.q !== text && next.findIndex((m) => m.q === n.q) === i) };
}
