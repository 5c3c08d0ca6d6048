import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from './openapi';

/**
 * The contract's route list (docs/contract.md, section 4 "Route list") against the OpenAPI document: one row
 * per method and path in the contract, one operation per method and path in OpenAPI, the same set both ways.
 * A route added, removed or renamed in one and not the other fails here, naming it.
 */
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/** The rows of the table under the heading "Route list", as `METHOD /path` (path as OpenAPI writes it). */
function contractRoutes(markdown: string): string[] {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((line) => /^#{2,4}\s+Route list\s*$/.test(line));
  if (start < 0) throw new Error('docs/contract.md has no "Route list" heading');
  const routes: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,4}\s/.test(line)) break;
    const cells = line.split('|').map((cell) => cell.trim());
    // | METHOD | `/api/path` | ... |: cells[0] is the text before the first bar (empty).
    const method = cells[1];
    const path = cells[2]?.replace(/^`|`$/g, '');
    if (method && path && /^[A-Z]+$/.test(method) && path.startsWith('/')) routes.push(`${method} ${path}`);
  }
  return routes;
}

/** Every operation of the OpenAPI document, as `METHOD /path`. */
function openApiRoutes(doc: { paths: Record<string, object> }): string[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key): key is (typeof HTTP_METHODS)[number] => (HTTP_METHODS as readonly string[]).includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );
}

describe('docs/contract.md route list against the OpenAPI document', () => {
  const contract = contractRoutes(readFileSync('docs/contract.md', 'utf8'));
  const openapi = openApiRoutes(openApiDocument('0.0.0-test'));

  it('lists routes, each method and path once', () => {
    expect(contract.length).toBeGreaterThan(0);
    const repeated = contract.filter((route, i) => contract.indexOf(route) !== i);
    expect(repeated, 'rows given twice in docs/contract.md').toEqual([]);
  });

  it('names every route of the OpenAPI document, and no other', () => {
    const inContract = new Set(contract);
    const inOpenApi = new Set(openapi);
    const missingFromContract = openapi.filter((route) => !inContract.has(route)).sort();
    const missingFromOpenApi = contract.filter((route) => !inOpenApi.has(route)).sort();
    expect(
      { missingFromContract, missingFromOpenApi },
      'docs/contract.md section 4 "Route list" and lib/api/openapi.ts disagree',
    ).toEqual({ missingFromContract: [], missingFromOpenApi: [] });
  });
});

describe('the route list reader', () => {
  it('reads the rows under the heading, up to the next heading', () => {
    const text = [
      '## 4. API',
      '| GET | `/api/elsewhere` | no |',
      '### Route list',
      '| method | path | what |',
      '|---|---|---|',
      '| GET | `/api/a/{id}` | one |',
      '| POST |  /api/a  | two |',
      '## 5. Pages',
      '| GET | `/api/after` | no |',
    ].join('\n');
    expect(contractRoutes(text)).toEqual(['GET /api/a/{id}', 'POST /api/a']);
  });

  it('fails without the heading', () => {
    expect(() => contractRoutes('# nothing here')).toThrow(/Route list/);
  });
});
