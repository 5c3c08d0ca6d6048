import { withAccount } from '@/lib/accounts/href';
import { isTransientCode, type ErrorCode } from '@/lib/api/error-codes';
import { apiGet, isApiFailure, type ApiOptions } from '@/lib/query/api-client';
import type { Collection, Provider } from '@/lib/api/schemas';
import type { MatchedField, SearchHit } from '@/lib/api/summary';
import type { Finding } from './extract';

/**
 * Bulk lookup's second step: what each finding is, asked of the dashboard's
 * own /api (never the upstream directly). Ids are read live, one record each;
 * e-mails, phones and references are searched in the index.
 */
export type Summary = {
  reference: string;
  status: string;
  amount: { value: number; currency: string };
  /** A search hit's contact: the name, the e-mail and the phone, as the reader may see them (section 7a). */
  person?: string;
};
export type Resolution =
  | { state: 'found'; href: string; collection?: Summary; provider?: { name: string; enabled: boolean } }
  | { state: 'matches'; href: string; count: number; first: Summary & { id: string; href: string } }
  | { state: 'none' }
  | { state: 'not_found' }
  | { state: 'other_account'; owner?: { id: string; name: string; href: string } }
  | { state: 'error'; code: ErrorCode; message: string; retryable: boolean };

type Fetch = NonNullable<ApiOptions['fetchImpl']>;

/** Search results read per finding: enough to tell "one" from "several", and the first to show. */
export const SEARCH_LIMIT = 10;

const SEARCHED: Record<'email' | 'phone' | 'reference', MatchedField[]> = {
  email: ['email'],
  // A number as written at home (a trunk prefix, no country code) matches as `phoneNational`.
  phone: ['phone', 'phoneNational'],
  reference: ['reference'],
};

/** A failed /api answer as a row's state (the one client's ApiFailure: lib/query/api-client.ts). */
function failure(error: unknown, subject: 'collection' | 'provider' | 'collections', href = ''): Resolution {
  if (!isApiFailure(error)) throw error; // aborted
  const { code, message, ownerAccount } = error;
  if (code === 'not_found') return { state: 'not_found' };
  // Another of the user's accounts owns it (the API's 403 says which): the row links it there.
  if (code === 'forbidden' && subject !== 'collections')
    return ownerAccount
      ? { state: 'other_account', owner: { ...ownerAccount, href: withAccount(href, ownerAccount.id) } }
      : { state: 'other_account' };
  return { state: 'error', code, message, retryable: isTransientCode(code) || code === 'index_unavailable' };
}

const summary = (c: Pick<Collection, 'reference' | 'status' | 'amount'>): Summary => ({
  reference: c.reference,
  status: c.status,
  amount: { value: c.amount.value, currency: c.amount.currency },
});

export async function resolveFinding(finding: Finding, fetchImpl: Fetch, signal: AbortSignal): Promise<Resolution> {
  const options = { signal, fetchImpl };
  if (finding.kind === 'collection' || finding.kind === 'provider') {
    const base = finding.kind === 'collection' ? 'collections' : 'providers';
    const href = `/${base}/${finding.value}`;
    const path = `/api/${base}/${encodeURIComponent(finding.value)}`;
    try {
      if (finding.kind === 'provider') {
        const { data } = await apiGet<{ data: Provider }>(path, options);
        return { state: 'found', href, provider: { name: data.name, enabled: data.enabled } };
      }
      const { data } = await apiGet<{ data: Collection }>(path, options);
      return { state: 'found', href, collection: summary(data) };
    } catch (error) {
      return failure(error, finding.kind, href);
    }
  }
  const query = new URLSearchParams({ q: finding.value, limit: String(SEARCH_LIMIT) });
  let found: { data: SearchHit[]; meta: { count: number } };
  try {
    found = await apiGet(`/api/search?${query}`, options);
  } catch (error) {
    return failure(error, 'collections');
  }
  const { data, meta } = found;
  // A search also matches names and reference prefixes: only hits on the finding's own kind count.
  const field = SEARCHED[finding.kind];
  let hits = data.filter((hit) => hit.matched.some((m) => field.includes(m)));
  if (finding.kind === 'reference') {
    const exact = hits.filter((hit) => hit.reference.toUpperCase() === finding.value.toUpperCase());
    if (exact.length) hits = exact;
  }
  if (!hits.length) return { state: 'none' };
  const first = hits[0]!;
  const firstHref = `/collections/${first.id}`;
  const count = hits.length === data.length && meta.count > data.length ? meta.count : hits.length;
  const person = [
    `${first.contact.firstName} ${first.contact.lastName}`.trim(),
    first.contact.email,
    first.contact.phone,
  ]
    .filter(Boolean)
    .join(' · ');
  const hit = { ...summary(first), ...(person ? { person } : {}) };
  if (count === 1) return { state: 'found', href: firstHref, collection: hit };
  return {
    state: 'matches',
    href: `/search?${new URLSearchParams({ q: finding.value })}`,
    count,
    first: { ...hit, id: first.id, href: firstHref },
  };
}

export const KIND_LABELS: Record<Finding['kind'], string> = {
  collection: 'Collection id',
  provider: 'Provider id',
  email: 'E-mail',
  phone: 'Phone',
  reference: 'Reference',
};

const describe = (s: Summary, money: (amount: Summary['amount']) => string) =>
  `${s.reference} · ${s.status} · ${money(s.amount)}`;

/** A row's result in words, as the table and the copied TSV say it. */
export function resultText(resolution: Resolution | undefined, money: (amount: Summary['amount']) => string): string {
  if (!resolution) return 'Looking up…';
  switch (resolution.state) {
    case 'found':
      if (resolution.provider)
        return `${resolution.provider.name} · ${resolution.provider.enabled ? 'enabled' : 'disabled'}`;
      return describe(resolution.collection!, money);
    case 'matches':
      return `${resolution.count.toLocaleString('en')} collections match; first: ${describe(resolution.first, money)}`;
    case 'none':
      return 'No match in the index';
    case 'not_found':
      return 'Not found';
    case 'other_account':
      return resolution.owner ? `Belongs to ${resolution.owner.name}` : 'Belongs to a different account';
    case 'error':
      return `Error: ${resolution.message}`;
  }
}

/** The results as tab-separated values with a header row, links made absolute; tabs and breaks in cells become spaces. */
export function lookupTsv(
  rows: Array<{ finding: Finding; resolution?: Resolution }>,
  origin: string,
  money: (amount: Summary['amount']) => string,
  account: string | null = null,
): string {
  const cell = (value: string) => value.replace(/[\t\r\n]+/g, ' ');
  const link = (r: Resolution | undefined) =>
    r && (r.state === 'found' || r.state === 'matches')
      ? new URL(withAccount(r.href, account), origin).toString()
      : r?.state === 'other_account' && r.owner
        ? new URL(r.owner.href, origin).toString()
        : '';
  return [
    ['Found', 'Kind', 'Result', 'Link'],
    ...rows.map(({ finding, resolution }) => [
      finding.value,
      KIND_LABELS[finding.kind],
      resultText(resolution, money),
      link(resolution),
    ]),
  ]
    .map((row) => row.map(cell).join('\t'))
    .join('\n');
}
