import { Validator } from '@seriousme/openapi-schema-validator';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ERROR_CODES } from './errors';
import { exportQuery, listQuery, overviewQuery, searchQuery } from './inputs';
import { openApiDocument } from './openapi';

/** Every `/api` route the app has, from its route.ts files under app/api (the catch-all is the 404 for the rest). */
function apiRoutes(dir = 'app/api', prefix = '/api'): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name.startsWith('[...')) continue;
    if (statSync(path).isDirectory()) out.push(...apiRoutes(path, `${prefix}/${name.replace(/^\[(\w+)\]$/, '{$1}')}`));
    else if (name === 'route.ts') out.push(prefix);
  }
  return out.sort();
}

describe('OpenAPI description of /api', () => {
  const doc = openApiDocument('0.0.0-test');

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('describes every route the app has, and no other', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(apiRoutes());
  });

  it('names every error code, with its status', () => {
    const text = JSON.stringify(doc);
    for (const code of ERROR_CODES) expect(text, code).toContain(`"${code}"`);
    expect(doc.components.schemas.Error).toMatchObject({
      properties: { code: { enum: expect.arrayContaining([...ERROR_CODES]) } },
    });
  });
});

type Param = { name: string; required: boolean; example?: unknown; schema: Record<string, unknown> };

describe('OpenAPI: the account of every gated operation', () => {
  it('documents account= on every route behind the gate, and forbidden_account among its errors', () => {
    const doc = openApiDocument('0.0.0-test');
    const paths = doc.paths as unknown as Record<
      string,
      Record<string, { parameters?: Param[]; responses: Record<string, unknown> }>
    >;
    for (const [path, item] of Object.entries(paths)) {
      if (['/api/health', '/api/ready', '/api/metrics', '/api/openapi.json'].includes(path)) continue;
      for (const [method, operation] of Object.entries(item)) {
        const account = operation.parameters?.find((p) => p.name === 'account');
        expect(account, `${method} ${path}`).toMatchObject({ in: 'query', required: false });
        expect(new RegExp(String(account!.schema.pattern)).test('acme-test')).toBe(true);
        expect(new RegExp(String(account!.schema.pattern)).test('Acme Ltd')).toBe(false);
      }
    }
  });
});

/**
 * The documented query parameters against the inputs the routes really parse with (lib/api/inputs.ts):
 * each documented example is taken, each documented type, format and enum is enforced by the parse with
 * the parameter named. A parameter documented by hand that the route reads differently fails here (the
 * old hand-written list said createdFrom took "a date or date-time"; the parse takes YYYY-MM-DD only).
 */
describe('OpenAPI query parameters against the routes’ inputs', () => {
  const doc = openApiDocument('0.0.0-test');
  const routes: [string, z.ZodType, Record<string, string>][] = [
    ['/api/collections', listQuery, {}],
    ['/api/search', searchQuery, { q: 'amara' }],
    ['/api/overview', overviewQuery, {}],
    ['/api/export/collections.csv', exportQuery, {}],
  ];
  for (const [route, input, base] of routes) {
    // `account` is the gate's (lib/server/route.ts), not the route's input: checked below.
    const params = (doc.paths as unknown as Record<string, { get: { parameters: Param[] } }>)[
      route
    ]!.get.parameters.filter((p) => p.name !== 'account');
    const parse = (extra: Record<string, string>) => input.safeParse(new URLSearchParams({ ...base, ...extra }));
    const refusedAt = (name: string, value: string) => {
      const result = parse({ [name]: value });
      return result.success ? null : result.error.issues[0]!.path;
    };

    it(`${route}: every documented example is accepted`, () => {
      for (const p of params) {
        expect(p.example, `${route} ${p.name} has an example`).toBeDefined();
        expect(parse({ [p.name]: String(p.example) }).success, `${route} ${p.name}=${String(p.example)}`).toBe(true);
      }
    });

    it(`${route}: every documented rule is the route’s, and a value that breaks it is refused by name`, () => {
      for (const p of params) {
        const { type, format, enum: values, maximum, maxLength } = p.schema;
        if (type === 'integer') expect(refusedAt(p.name, '1.5'), `${p.name}=1.5`).toEqual([p.name]);
        if (format === 'date') {
          expect(refusedAt(p.name, '2026-11-01T10:00:00Z'), `${p.name} as a date-time`).toEqual([p.name]);
          expect(refusedAt(p.name, '2026-02-30'), `${p.name} not a day`).toEqual([p.name]);
        }
        if (Array.isArray(values))
          expect(refusedAt(p.name, 'no-such-value'), `${p.name} off the enum`).toEqual([p.name]);
        if (typeof maximum === 'number') expect(refusedAt(p.name, String(maximum + 1)), p.name).toEqual([p.name]);
        if (typeof maxLength === 'number')
          expect(refusedAt(p.name, 'x'.repeat(maxLength + 1)), p.name).toEqual([p.name]);
      }
    });

    it(`${route}: a required parameter is required`, () => {
      for (const p of params.filter((q) => q.required)) {
        const without = Object.fromEntries(Object.entries(base).filter(([name]) => name !== p.name));
        expect(input.safeParse(new URLSearchParams(without)).success, `${route} without ${p.name}`).toBe(false);
      }
    });
  }
});
