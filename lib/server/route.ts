import 'server-only';
import type { z } from 'zod';
import type { ErrorSubject } from '@/lib/api/errors';
import { contextFromHeaders, type RequestContext } from './context';
import { AppError, failureResponse, json, methodNotAllowed, toFailure } from './errors';
import { recordRequest } from './observability/metrics';

/**
 * The one shape of a route handler (after dub's `withWorkspace`): parse the
 * path parameters and the query with the route's zod schemas → build the
 * request context (the access gate) → read → the seed's envelope, or the one
 * error mapper. Handlers hold no try/catch; anything but GET is a 405.
 */
type Input<P extends z.ZodType | undefined> = P extends z.ZodType ? z.output<P> : undefined;

type RouteSpec<P extends z.ZodType | undefined, Q extends z.ZodType | undefined> = {
  /** The route's pattern, the metrics' label (never the path: ids would make a series each). */
  route: string;
  subject: ErrorSubject;
  params?: P;
  query?: Q;
  /** The envelope's body, or a Response of its own (a download). */
  read: (input: { params: Input<P>; query: Input<Q>; request: Request }, context: RequestContext) => Promise<unknown>;
};

function parse(schema: z.ZodType | undefined, raw: unknown, subject: ErrorSubject): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  throw new AppError('bad_request', result.error.issues[0]?.message ?? AppError.of('bad_request', subject).message);
}

export function apiRoute<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
  spec: RouteSpec<P, Q>,
) {
  async function GET(request: Request, route: { params: Promise<unknown> }) {
    const requestId = request.headers.get('x-request-id') ?? undefined;
    const started = performance.now();
    const done = (response: Response) => {
      recordRequest(spec.route, 'GET', response.status, (performance.now() - started) / 1000);
      return response;
    };
    try {
      const params = parse(spec.params, await route.params, spec.subject) as Input<P>;
      const query = parse(spec.query, new URL(request.url).searchParams, spec.subject) as Input<Q>;
      const context = await contextFromHeaders(request.headers);
      const result = await spec.read({ params, query, request }, context);
      return done(result instanceof Response ? result : json(result));
    } catch (error) {
      return done(failureResponse(toFailure(error, spec.subject, requestId)));
    }
  }
  return { GET, POST: methodNotAllowed, PUT: methodNotAllowed, PATCH: methodNotAllowed, DELETE: methodNotAllowed };
}
