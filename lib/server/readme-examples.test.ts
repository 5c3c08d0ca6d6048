import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MatchedField } from '@/lib/api/summary';
import { startSandbox, type TestSandbox } from '@/test/sandbox';

/**
 * The README's "Search examples" table, proved on the sandbox's data: a real sandbox seeded as `npm start`
 * seeds it (the same seed and size, activity off), a runtime built from the environment as the server builds
 * it, its index synced to ready, and every example asked through the request side's search
 * (`searchCollections`, what `/api/search` and `/search` run). Each must find the count its row says, its first
 * result the person the row names, matched on the kinds the row lists.
 */
const README = fileURLToPath(new URL('../../README.md', import.meta.url));

const KINDS: readonly MatchedField[] = [
  'id',
  'email',
  'emailLocal',
  'phone',
  'phoneNational',
  'phoneLast4',
  'reference',
  'referencePart',
  'name',
  'namePrefix',
  'nameSounds',
];

type Example = { query: string; count: number; finds: string; kinds: MatchedField[] };

/** The rows of the first table under the `### Search examples` heading. */
function readmeExamples(text: string): Example[] {
  const section = text.split(/^### Search examples[ \t]*$/m)[1]?.split(/^#{1,6} /m)[0];
  if (!section) throw new Error('README.md has no "### Search examples" section');
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2); // the header and its rule
  return rows.map((line) => {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    const [query, , finds, matched] = cells;
    const code = /^`([^`]+)`$/.exec(query ?? '');
    const count = /^(\d+) ·/.exec(finds ?? '');
    const kinds = [...(matched ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] as MatchedField);
    if (cells.length !== 4 || !code || !count || !kinds.length)
      throw new Error(`README.md: a search example row this test cannot read: ${line}`);
    return { query: code[1]!, count: Number(count[1]), finds: finds!, kinds };
  });
}

const examples = readmeExamples(readFileSync(README, 'utf8'));

let sandbox: TestSandbox;
let dir: string;
let server: {
  runtime: typeof import('./runtime').runtime;
  systemContext: typeof import('./context').systemContext;
  searchCollections: typeof import('./reads/collections').searchCollections;
};

beforeAll(async () => {
  sandbox = await startSandbox({ faults: false });
  dir = mkdtempSync(join(tmpdir(), 'readme-examples-'));
  // The sandbox's own settings, as `npm start` gives them to the dashboard: no upstream, the sandbox's port.
  vi.stubEnv('API_BASE_URL', '');
  vi.stubEnv('SANDBOX_PORT', new URL(sandbox.url).port);
  vi.stubEnv('INDEX_PATH', join(dir, 'index.sqlite'));
  vi.stubEnv('DATABASE_URL', '');
  vi.stubEnv('INDEX', '');
  vi.resetModules();
  const [{ runtime }, { systemContext }, { searchCollections }] = await Promise.all([
    import('./runtime'),
    import('./context'),
    import('./reads/collections'),
  ]);
  server = { runtime, systemContext, searchCollections };
  runtime().start();
  const deadline = Date.now() + 30_000;
  while ((await runtime().index.status()).state !== 'ready') {
    if (Date.now() > deadline) throw new Error('the index did not get ready within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 60_000);

afterAll(async () => {
  await server?.runtime().stop();
  vi.unstubAllEnvs();
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the README's search examples", () => {
  it('are read from the README: one per row, every kind of match shown at least once', () => {
    expect(examples.length).toBeGreaterThanOrEqual(15);
    expect(new Set(examples.map((e) => e.query)).size).toBe(examples.length);
    expect([...new Set(examples.flatMap((e) => e.kinds))].sort()).toEqual([...KINDS].sort());
  });

  it('are searched on the sandbox that `npm start` seeds (the demo account, every listed collection indexed)', async () => {
    const status = await server.runtime().index.status();
    expect(status).toMatchObject({ state: 'ready', indexed: sandbox.demo.listedCollections, coverage: 1 });
    expect(sandbox.demo.listedCollections).toBe(253);
  });

  it.each(examples)('$query finds $count, matched on $kinds', async ({ query, count, finds, kinds }) => {
    const answer = await server.searchCollections(server.runtime(), server.systemContext('readme-examples'), {
      q: query,
      page: 1,
      limit: 100,
    });
    const hits = answer.data;
    expect(hits.length).toBeGreaterThan(0);
    expect(answer.meta.count).toBe(count);
    expect(hits).toHaveLength(count);
    // The first result is the person the row names.
    const first = `${hits[0]!.contact.firstName} ${hits[0]!.contact.lastName}`;
    expect(finds.normalize('NFC')).toContain(first.normalize('NFC'));
    // Each kind the row lists is what at least one result matched on...
    const matched = new Set(hits.flatMap((h) => h.matched));
    for (const kind of kinds) expect(matched, `a result of "${query}" matched on ${kind}`).toContain(kind);
    // ...and the first result matched on one of them (it ranks first for that reason).
    expect(kinds.some((kind) => hits[0]!.matched.includes(kind))).toBe(true);
  });
});
