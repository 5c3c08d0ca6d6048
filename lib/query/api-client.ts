import { withAccount } from '@/lib/accounts/href';
import { isApiFailure, type ApiFailure } from '@/lib/api/failure';

/**
 * The browser's one client for the dashboard's own `/api`: one fetch, one envelope reader, one error type
 * (`ApiFailure`, the plain object the server's error envelope carries and the UI renders), one rule for
 * aborts and time. Every browser caller of `/api` goes through here: the list's queries, the Search box, the
 * index indicator, Previous / Next, a watched record, Lookup and the CSV export.
 *
 * - A failed answer rejects with its `ApiFailure`: the envelope's own code and message, or one named by the
 *   HTTP status when something in between answered (a proxy's 502 page).
 * - The caller's signal aborting rejects with the abort itself (not a failure: nobody is told).
 * - No answer within `timeoutMs` rejects with `upstream_timeout`; no answer at all with `upstream_unreachable`.
 * - A change (`method` and `body`) is sent the same way, its body as JSON.
 */
export const API_TIMEOUT_MS = 30_000;

type Fetch = (path: string, init: RequestInit & { signal: AbortSignal }) => Promise<Response>;
export type ApiOptions = {
  signal?: AbortSignal;
  /** 0: no limit (a download that may take minutes). */
  timeoutMs?: number;
  /** Only for tests of a caller: what answers instead of the network. */
  fetchImpl?: Fetch;
  /** A change (saved views): the method, and a body sent as JSON. */
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
};

/**
 * What an answer without the envelope (something in between answered) is read as, by its status, in the
 * words of lib/api/error-codes.ts's errorMessage (api-client.test.ts holds them equal): three sentences
 * here instead of that whole table in every page's script.
 */
const WITHOUT_ENVELOPE: Record<number, Omit<ApiFailure, 'retryAfter'>> = {
  504: { code: 'upstream_timeout', message: 'The upstream API did not answer in time' },
  401: { code: 'unauthorized', message: 'Sign in to use the dashboard' },
  0: { code: 'upstream_error', message: 'The upstream API failed to answer' },
};

/** A failed /api response read back into the failure the UI renders. */
export async function failureFrom(response: Response): Promise<ApiFailure> {
  const retryAfter = Number(response.headers.get('retry-after')) || undefined;
  const body: unknown = await response.json().catch(() => null);
  if (isApiFailure(body)) {
    const owner = (body as { ownerAccount?: { id?: unknown; name?: unknown } }).ownerAccount;
    const ownerAccount =
      typeof owner?.id === 'string' && typeof owner.name === 'string' ? { id: owner.id, name: owner.name } : undefined;
    return { code: body.code, message: body.message, retryAfter, ...(ownerAccount ? { ownerAccount } : {}) };
  }
  return { ...(WITHOUT_ENVELOPE[response.status] ?? WITHOUT_ENVELOPE[0]!), retryAfter };
}

export function networkFailure(): ApiFailure {
  return { code: 'upstream_unreachable', message: 'The dashboard could not be reached. Check your connection.' };
}

function timeoutFailure(): ApiFailure {
  return { code: 'upstream_timeout', message: 'The dashboard took too long to answer' };
}

/** The caller's signal and the time limit as one (AbortSignal.any: Chrome 116, Safari 17.4, Firefox 124). */
const combined = (signals: (AbortSignal | null | undefined)[]) =>
  AbortSignal.any(signals.filter((s): s is AbortSignal => Boolean(s)));

/** The account the page's address names (`all` is a search's: its other reads are the default account's). */
function pageAccount(): string | null {
  if (typeof window === 'undefined') return null;
  const account = new URLSearchParams(window.location.search).get('account');
  return account === 'all' ? null : account;
}

/** Asks `/api`: the response once it is OK; else rejects as above. */
export async function apiResponse(path: string, options: ApiOptions = {}): Promise<Response> {
  if (!path.startsWith('/api/')) throw new Error(`not a dashboard API path: ${path}`);
  // The page's account (its address names it when there are several): a tab reads the account it shows.
  path = withAccount(path, pageAccount());
  const { signal, timeoutMs = API_TIMEOUT_MS, fetchImpl = fetch, method = 'GET', body } = options;
  const timeout = timeoutMs ? AbortSignal.timeout(timeoutMs) : null;
  let response: Response;
  try {
    response = await fetchImpl(path, {
      signal: combined([signal, timeout]),
      method,
      headers:
        body === undefined
          ? { Accept: 'application/json' }
          : { Accept: 'application/json', 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      credentials: 'same-origin',
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw timeout?.aborted ? timeoutFailure() : networkFailure();
  }
  if (!response.ok) throw await failureFrom(response);
  return response;
}

/** Asks `/api` for JSON: the envelope's body once OK; else rejects as above. */
export async function apiGet<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const response = await apiResponse(path, options);
  try {
    return (await response.json()) as T;
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw networkFailure(); // the body broke off part-way
  }
}

export { isApiFailure };
