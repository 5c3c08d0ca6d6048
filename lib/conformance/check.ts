import type { z } from 'zod';
import { collectionEnvelopeSchema, collectionListEnvelopeSchema, providerEnvelopeSchema } from '@/lib/api/envelopes';
import { errorBodySchema } from '@/lib/api/errors';

/**
 * The upstream conformance check (contract section 11): does a base URL behave
 * as the seed describes? Read-only and bounded (at most `maxRequests` GETs,
 * `paceMs` apart). Each rule the seed states is a check that passes or fails;
 * what the seed leaves open is reported as an observation. No key is ever
 * printed. Pure over `fetch`, so it is tested against the real sandbox.
 */
export type Check = { rule: string; ok: boolean; detail?: string };
export type Observation = { topic: string; note: string };
export type Report = { baseUrl: string; checks: Check[]; observations: Observation[]; requests: number; ok: boolean };

export type Options = {
  baseUrl: string;
  key: string;
  keyHeader?: string;
  /** A record to check; the first of the list's first page when not given. */
  collectionId?: string;
  providerId?: string;
  fetch?: typeof fetch;
  maxRequests?: number;
  paceMs?: number;
};

const issue = (error: z.ZodError) => {
  const first = error.issues[0]!;
  return `${first.path.join('.') || '(body)'}: ${first.message}`;
};

export async function runConformance(options: Options): Promise<Report> {
  const base = options.baseUrl.replace(/\/+$/, '');
  const keyHeader = options.keyHeader ?? 'Authorization';
  const doFetch = options.fetch ?? fetch;
  const maxRequests = options.maxRequests ?? 60;
  const paceMs = options.paceMs ?? 200;
  const checks: Check[] = [];
  const observations: Observation[] = [];
  const rateHeaders = new Set<string>();
  let requests = 0;

  const check = (rule: string, ok: boolean, detail?: string) =>
    checks.push({ rule, ok, ...(detail ? { detail } : {}) });
  const keyValue = (key: string) => (keyHeader.toLowerCase() === 'authorization' ? `Bearer ${key}` : key);

  async function get(path: string, key = options.key): Promise<{ status: number; body: unknown; text: string } | null> {
    if (requests >= maxRequests) return null;
    if (requests > 0) await new Promise((r) => setTimeout(r, paceMs));
    requests += 1;
    try {
      const res = await doFetch(`${base}/public${path}`, {
        headers: { [keyHeader]: keyValue(key), Accept: 'application/json' },
        signal: AbortSignal.timeout(15_000),
      });
      for (const name of res.headers.keys())
        if (/^(x-)?rate-?limit|^retry-after$/i.test(name)) rateHeaders.add(name.toLowerCase());
      const text = await res.text();
      let body: unknown = undefined;
      try {
        body = JSON.parse(text);
      } catch {
        // Left undefined: the JSON check below says so.
      }
      return { status: res.status, body, text };
    } catch (error) {
      check(`GET ${path} answers`, false, error instanceof Error ? error.message : String(error));
      return null;
    }
  }

  // The list's first page, as a client with no parameters sees it.
  const first = await get('/collections');
  let count = 0;
  let ids: string[] = [];
  if (first) {
    check('GET /collections answers 200', first.status === 200, `HTTP ${first.status}`);
    check('the list answer is JSON', first.body !== undefined);
    const parsed = collectionListEnvelopeSchema.safeParse(first.body);
    check(
      'the list answer has the envelope and every record the seed’s fields and types',
      parsed.success,
      parsed.success ? undefined : issue(parsed.error),
    );
    if (parsed.success) {
      const { data, meta } = parsed.data;
      count = meta.count;
      ids = data.map((c) => c.id);
      check('limit defaults to 10', data.length === Math.min(10, count), `${data.length} rows of ${count}`);
      check('the first page has no prev', meta.prev === null, `prev ${meta.prev}`);
      check('next points at page 2 while more rows follow', meta.next === (count > 10 ? 2 : null), `next ${meta.next}`);
      check(
        'collection ids start with pay_',
        data.every((c) => c.id.startsWith('pay_')),
      );
      const times = data.map((c) => Date.parse(c.createdAt));
      const order = times.every((t, i) => i === 0 || times[i - 1]! >= t)
        ? 'newest first'
        : times.every((t, i) => i === 0 || times[i - 1]! <= t)
          ? 'oldest first'
          : 'no order by createdAt';
      observations.push({ topic: 'list order', note: `the first page is ${order}` });
    }
  }

  const hundred = await get('/collections?page=1&limit=100');
  if (hundred) {
    const parsed = collectionListEnvelopeSchema.safeParse(hundred.body);
    check(
      'limit=100 is honoured',
      parsed.success && parsed.data.data.length === Math.min(100, count),
      parsed.success ? `${parsed.data.data.length} rows` : `HTTP ${hundred.status}`,
    );
  }

  const over = await get('/collections?page=1&limit=101');
  if (over) {
    const rows = collectionListEnvelopeSchema.safeParse(over.body);
    check(
      'limit above 100 is refused or capped',
      over.status === 400 || (rows.success && rows.data.data.length <= 100),
      `HTTP ${over.status}`,
    );
    observations.push({
      topic: 'limit above 100',
      note:
        over.status === 400
          ? 'refused with 400'
          : `answered ${over.status} with ${rows.success ? rows.data.data.length : '?'} rows`,
    });
  }

  if (count > 0) {
    const last = Math.ceil(count / 10);
    const page = await get(`/collections?page=${last}&limit=10`);
    if (page) {
      const parsed = collectionListEnvelopeSchema.safeParse(page.body);
      const ok =
        parsed.success &&
        parsed.data.meta.next === null &&
        parsed.data.meta.prev === (last > 1 ? last - 1 : null) &&
        parsed.data.data.length === count - (last - 1) * 10 &&
        parsed.data.meta.count === count;
      check(
        'the last page has no next, prev before it, the remaining rows and the same count',
        ok,
        parsed.success
          ? `page ${last}: ${parsed.data.data.length} rows, next ${parsed.data.meta.next}, prev ${parsed.data.meta.prev}`
          : `HTTP ${page.status}`,
      );
    }
    const past = await get(`/collections?page=${last + 1}&limit=10`);
    if (past) {
      const parsed = collectionListEnvelopeSchema.safeParse(past.body);
      observations.push({
        topic: 'past the last page',
        note: parsed.success ? `200 with ${parsed.data.data.length} rows` : `HTTP ${past.status}`,
      });
    }
  }

  const id = options.collectionId ?? ids[0];
  if (id) {
    const one = await get(`/collections/${encodeURIComponent(id)}`);
    if (one) {
      check(`GET /collections/${id} answers 200`, one.status === 200, `HTTP ${one.status}`);
      check('a collection answer is JSON', one.body !== undefined);
      const parsed = collectionEnvelopeSchema.safeParse(one.body);
      check(
        'a collection has the envelope and the seed’s fields, types and timestamps',
        parsed.success,
        parsed.success ? undefined : issue(parsed.error),
      );
    }
  } else
    observations.push({
      topic: 'collection',
      note: 'no collection to read: the list is empty and no --collection-id was given',
    });

  if (options.providerId) {
    const provider = await get(`/providers/${encodeURIComponent(options.providerId)}`);
    if (provider) {
      const parsed = providerEnvelopeSchema.safeParse(provider.body);
      check(
        'a provider has the envelope and the seed’s fields and types',
        provider.status === 200 && parsed.success,
        parsed.success ? `HTTP ${provider.status}` : issue(parsed.error),
      );
    }
  } else
    observations.push({
      topic: 'provider',
      note: 'no provider read: the list names none; pass --provider-id to check one',
    });

  const missing = await get('/collections/pay_conformanceUnknown0');
  if (missing) {
    const parsed = errorBodySchema.omit({ code: true }).safeParse(missing.body);
    check(
      'an unknown collection id is a 404 with the error envelope',
      missing.status === 404 && parsed.success,
      `HTTP ${missing.status}`,
    );
  }
  const missingProvider = await get('/providers/prv_conformanceUnknown0');
  if (missingProvider)
    check('an unknown provider id is a 404', missingProvider.status === 404, `HTTP ${missingProvider.status}`);

  const badKey = await get('/collections?limit=1', 'not-a-key-conformance-check');
  if (badKey) check('a wrong key is a 401', badKey.status === 401, `HTTP ${badKey.status}`);

  observations.push({
    topic: 'key header',
    note: `the key was sent in ${keyHeader}${keyHeader.toLowerCase() === 'authorization' ? ' as a Bearer token' : ''}`,
  });
  observations.push({
    topic: 'rate-limit headers',
    note: rateHeaders.size ? `seen: ${[...rateHeaders].sort().join(', ')}` : 'none seen on these answers',
  });
  return { baseUrl: base, checks, observations, requests, ok: checks.every((c) => c.ok) };
}

/** The report for a person: one line a rule, then the observations and the verdict. */
export function formatReport(report: Report): string {
  const lines = [`Upstream conformance: ${report.baseUrl} (${report.requests} requests)`, ''];
  for (const c of report.checks)
    lines.push(`${c.ok ? 'PASS' : 'FAIL'}  ${c.rule}${c.detail && !c.ok ? ` (${c.detail})` : ''}`);
  lines.push('', 'Observations (the seed leaves these open):');
  for (const o of report.observations) lines.push(`  ${o.topic}: ${o.note}`);
  const failed = report.checks.filter((c) => !c.ok).length;
  lines.push(
    '',
    report.ok
      ? `Conforms: ${report.checks.length} checks passed.`
      : `Does not conform: ${failed} of ${report.checks.length} checks failed.`,
  );
  return lines.join('\n');
}
