/**
 * The dashboard's error codes (contract section 4): one table from code to
 * HTTP status and the dashboard's own sentence for each, shared by the route
 * handlers, the pages and the browser. No zod here: this module ships to the
 * browser, which trusts what the server already validated.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  forbidden_role: 403,
  forbidden_account: 403,
  not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  upstream_auth: 502,
  upstream_rejected: 502,
  upstream_error: 502,
  upstream_unreachable: 502,
  upstream_invalid: 502,
  upstream_timeout: 504,
  index_unavailable: 503,
  index_busy: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** Errors worth retrying from the browser: the upstream may be back in a moment. */
export function isTransientCode(code: ErrorCode): boolean {
  return (
    code === 'upstream_error' ||
    code === 'upstream_unreachable' ||
    code === 'upstream_timeout' ||
    code === 'rate_limited'
  );
}

export type ErrorSubject = 'collection' | 'provider' | 'collections' | 'contact';

/**
 * The dashboard's own plain sentence for each code. Upstream bodies never reach
 * the browser; these do.
 */
export function errorMessage(
  code: ErrorCode,
  subject: ErrorSubject,
  detail?: { retryAfter?: number; timeoutMs?: number },
): string {
  const noun = subject === 'provider' ? 'Provider' : subject === 'contact' ? 'Contact' : 'Collection';
  switch (code) {
    case 'bad_request':
      return subject === 'collections' ? 'Invalid page or limit' : `Invalid ${noun.toLowerCase()} id`;
    case 'unauthorized':
      return 'Sign in to use the dashboard';
    case 'forbidden':
      return subject === 'collections'
        ? 'The upstream API refused access to these collections'
        : `This ${noun.toLowerCase()} belongs to a different account`;
    case 'forbidden_role':
      return 'Your role does not allow this: ask an admin of the dashboard';
    case 'forbidden_account':
      return 'You may not see this account: ask an admin of the dashboard';
    case 'not_found':
      return `${noun} not found`;
    case 'method_not_allowed':
      return 'Only GET is allowed here';
    case 'rate_limited':
      return detail?.retryAfter
        ? `Rate limited by the upstream API, retry in ${detail.retryAfter} s`
        : 'Rate limited by the upstream API, retry shortly';
    case 'upstream_auth':
      return "The upstream API rejected the dashboard's API key (check API_KEY)";
    case 'upstream_rejected':
      return 'The upstream API rejected the request';
    case 'upstream_error':
      return 'The upstream API failed to answer';
    case 'upstream_unreachable':
      return 'The upstream API could not be reached';
    case 'upstream_invalid':
      return 'The upstream API returned data the dashboard cannot read';
    case 'index_unavailable':
      return 'Search and filters are unavailable: the index is off';
    case 'index_busy':
      return 'The index took too long to answer this: narrow it (another word, a filter, more of the reference) and try again';
    case 'upstream_timeout':
      return detail?.timeoutMs
        ? `The upstream API did not answer within ${detail.timeoutMs} ms`
        : 'The upstream API did not answer in time';
  }
}
