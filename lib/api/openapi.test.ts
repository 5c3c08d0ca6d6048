import { Validator } from '@seriousme/openapi-schema-validator';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from './errors';
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
