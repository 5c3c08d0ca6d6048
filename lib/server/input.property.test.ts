import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COLLECTION_ID, isCollectionId, isProviderId } from '@/lib/api/ids';
import { pagingSchema, parseListState, parseState, toSearchParams } from '@/lib/api/list-state';
import { upstreamUrl, type UpstreamRequest } from './upstream';
import { AppError } from './errors';

/**
 * For any input: either a 400 (bad_request) with no upstream URL, or a URL on
 * the configured origin whose path is exactly one of the three templates with
 * one valid id segment.
 */
const BASE = 'https://api.example.com/v1';
const TEMPLATES = [
  /^\/v1\/public\/collections$/,
  /^\/v1\/public\/collections\/pay_[A-Za-z0-9_-]{1,128}$/,
  /^\/v1\/public\/providers\/prv_[A-Za-z0-9_-]{1,128}$/,
];

function check(request: UpstreamRequest) {
  let url: string;
  try {
    url = upstreamUrl(BASE, request);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('bad_request');
    return 'rejected';
  }
  const parsed = new URL(url);
  expect(parsed.origin).toBe('https://api.example.com');
  expect(url.startsWith(`${BASE}/public/`)).toBe(true);
  expect(TEMPLATES.some((t) => t.test(parsed.pathname))).toBe(true);
  // Nothing was normalised away: the URL is the template, character for character.
  expect(parsed.href).toBe(url);
  return 'built';
}

const nasty = fc.constantFrom(
  '.',
  '..',
  '%2e%2e',
  '%252e%252e',
  '..%2f',
  '//evil.example/x',
  'http://169.254.169.254/',
  '\\',
  '%00',
  '\u0000',
  '%0d%0a',
  '\r\n',
  'a'.repeat(10_240),
  '?x=1',
  '#frag',
  '@evil',
  'pay_../../x',
  'pay_a/../../b',
  'pay_%2F',
  'pay_\u2028',
);
const idish = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  nasty,
  fc.tuple(fc.constantFrom('pay_', 'prv_', 'PAY_', ''), fc.oneof(fc.string(), nasty)).map(([p, s]) => p + s),
  fc.stringMatching(/^pay_[A-Za-z0-9_-]{1,140}$/),
  fc.stringMatching(/^prv_[A-Za-z0-9_-]{1,140}$/),
);

describe('upstream URL building (property)', () => {
  it('any collection or provider id is rejected or lands on its template', () => {
    fc.assert(
      fc.property(idish, fc.constantFrom('collection', 'provider'), (id, kind) => {
        const outcome = check({ kind, id } as UpstreamRequest);
        expect(outcome === 'built').toBe(kind === 'collection' ? isCollectionId(id) : isProviderId(id));
      }),
      { numRuns: 3000 },
    );
  });

  it('any page and limit are rejected or land on the list template', () => {
    const num = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(NaN, Infinity, -0, 1e21, 2 ** 53));
    fc.assert(
      fc.property(num, num, (page, limit) => {
        const outcome = check({ kind: 'list', page, limit });
        expect(outcome === 'built').toBe(
          Number.isSafeInteger(page) && page >= 1 && Number.isInteger(limit) && limit >= 1 && limit <= 100,
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('valid ids always build', () => {
    fc.assert(
      fc.property(fc.stringMatching(COLLECTION_ID), (id) => {
        expect(check({ kind: 'collection', id })).toBe('built');
      }),
    );
  });
});

describe('page and limit parsing (property)', () => {
  it('accepts exactly the plain decimal integers in range, whatever the string', () => {
    const raw = fc.oneof(
      fc.string(),
      fc.integer().map(String),
      fc.double().map(String),
      fc.constantFrom('1e3', '0x10', '1.5', '-1', ' 1', '01', '+1', ''),
    );
    fc.assert(
      fc.property(raw, raw, (page, limit) => {
        const result = parseState(pagingSchema, toSearchParams({ page, limit }));
        const okPage = /^[1-9]\d*$/.test(page) && Number.isSafeInteger(Number(page));
        const okLimit = /^[1-9]\d*$/.test(limit) && Number(limit) <= 100;
        expect(result.ok).toBe(okPage && okLimit);
        if (result.ok) expect(result.value).toEqual({ page: Number(page), limit: Number(limit) });
      }),
      { numRuns: 3000 },
    );
  });

  it('rejects any repeated parameter', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 100 }).map(String), { minLength: 2, maxLength: 4 }),
        fc.constantFrom('page', 'limit'),
        (values, name) => {
          const search = new URLSearchParams(values.map((v) => [name, v]));
          expect(parseListState(search).ok).toBe(false);
        },
      ),
    );
  });
});
