import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { ERROR_STATUS, type ErrorCode } from '@/lib/api/error-codes';
import { processSlot } from './runtime';

/**
 * A page's HTTP status when its upstream read failed: 502, 503, 504 or 429 as `/api` answers the same
 * failure (contract section 4), while the page renders its friendly error state with Retry. The app
 * router has no API for a status other than 404, 403 and 401 (`notFound()` and its kin), so the server
 * keeps each request's response at hand (`trackPageStatuses`, from instrumentation.ts at start) and a
 * page that met a failure says so (`answerPageWith`) before its first byte is sent: every page reads
 * its data before anything streams (none has a loading boundary), so the status is known when Next.js
 * writes the head. A status Next.js chose itself (404, 500, a redirect) is never replaced, and the
 * router's own requests for a page's payload (`RSC: 1`: a client navigation, Retry's refresh) keep 200:
 * the router falls back to a full page load on any other status.
 */
type Exchange = { res: ServerResponse; document: boolean; status?: number };

// One store for the process (instrumentation.ts and the pages are bundled apart): a slot runtime.ts names.
const exchanges = processSlot('page-status', () => new AsyncLocalStorage<Exchange>());
/** Marks Node's `http.Server.prototype` as patched, so a second copy of this module does not patch it again. */
const PATCHED = Symbol.for('collections-console.page-status.patched');

/** Every request of this process's HTTP servers runs with its response at hand. Once, at start. */
export function trackPageStatuses(): void {
  const proto = Server.prototype as Server & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  const emit = proto.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  proto.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    if (event !== 'request') return emit.call(this, event, ...args);
    const [req, res] = args as [IncomingMessage, ServerResponse];
    const exchange: Exchange = { res, document: req.headers.rsc !== '1' };
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
      const status = exchange.status && statusCode === 200 ? exchange.status : statusCode;
      return (writeHead as (...a: unknown[]) => ServerResponse).call(this, status, ...rest);
    } as ServerResponse['writeHead'];
    return exchanges.run(exchange, () => emit.call(this, event, ...args));
  } as Server['emit'];
  proto[PATCHED] = true;
}

/** The page being rendered answers the status `/api` gives this failure (a no-op outside a document request). */
export function answerPageWith(code: ErrorCode): void {
  const exchange = exchanges.getStore();
  if (!exchange?.document || exchange.res.headersSent) return;
  exchange.status = ERROR_STATUS[code];
}
