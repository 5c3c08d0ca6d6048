import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaults, filterSchema } from '@/lib/api/list-state';
import { postgresBinaries, startPostgres } from '@/scripts/postgres-server';
import { startSandbox, type TestSandbox } from '@/test/sandbox';
import { closedUnder, storeFault } from '../database/connect';

/**
 * The service against a real sandbox: it syncs to ready, and a fault of its
 * own store (a full disk here) turns the index off with the reason while the
 * rest of the dashboard is untouched.
 */
let sandbox: TestSandbox;
let dir: string;
let service: import('./service').IndexService;
let runtime: import('../runtime').Runtime;

/** A runtime of the server's parts from the environment as it is now (the modules loaded afresh). */
async function build(): Promise<import('../runtime').Runtime> {
  vi.resetModules();
  const [{ buildRuntime }, { getConfig }] = await Promise.all([import('../runtime'), import('../env')]);
  return buildRuntime(getConfig());
}

beforeAll(async () => {
  sandbox = await startSandbox({ faults: false });
  dir = mkdtempSync(join(tmpdir(), 'index-service-'));
  vi.stubEnv('SANDBOX_PORT', new URL(sandbox.url).port);
  vi.stubEnv('INDEX_PATH', join(dir, 'index.sqlite'));
  vi.stubEnv('INDEX_POLL_S', '1');
  runtime = await build();
  service = runtime.index;
  service.start();
});
afterAll(async () => {
  await runtime.stop();
  vi.unstubAllEnvs();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the index service', () => {
  it('syncs the sandbox to ready and answers searches', async () => {
    await expect.poll(async () => (await service.status()).state, { timeout: 15_000 }).toBe('ready');
    const status = await service.status();
    expect(status).toMatchObject({
      indexed: sandbox.demo.listedCollections,
      upstreamCount: sandbox.demo.listedCollections,
      coverage: 1,
    });
    // When the figures were read, together (one statement): what a page says they are "as of".
    expect(Date.parse(status.countedAt!)).toBeGreaterThan(Date.parse(status.asOf!) - 60_000);
    const [id, contact] = Object.entries(sandbox.demo.contacts)[0]!;
    const hits = await (
      await service.queries()
    ).search(
      contact.email,
      (await import('@/lib/api/list-state')).defaults((await import('@/lib/api/list-state')).filterSchema),
      1,
      10,
    );
    expect(hits.data.map((h) => h.id)).toEqual([id]);
  });

  it('turns off with the reason when its disk is full, and answers index_unavailable', async () => {
    await service.storeFault(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }));
    const status = await service.status();
    expect(status.state).toBe('off');
    expect(status.reason).toMatch(/disk holding the index is full/);
    await expect(service.queries()).rejects.toMatchObject({ code: 'index_unavailable' });
  });
});

/** A second runtime in this process with `env` on top, for `check` on its index; stopped after, and `env` unset. */
async function withOtherService(
  env: Record<string, string>,
  check: (s: import('./service').IndexService) => Promise<void>,
) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const other = await build();
  try {
    await check(other.index);
  } finally {
    await other.stop();
    for (const name of Object.keys(env)) if (name !== 'INDEX_PATH') vi.stubEnv(name, '');
  }
}

describe('the index service handing over', () => {
  it('gives its lease up and stops syncing when told the process is ending, keeping its reads', async () => {
    const ownDir = mkdtempSync(join(tmpdir(), 'index-handover-'));
    const path = join(ownDir, 'index.sqlite');
    try {
      await withOtherService({ INDEX_PATH: path }, async (leader) => {
        leader.start();
        await expect.poll(() => leader.whereAndWho().syncing, { timeout: 15_000 }).toBe(true);
        const leases = () => {
          const db = new Database(path, { readonly: true });
          try {
            return db.prepare('select owner from sync_lease').all();
          } finally {
            db.close();
          }
        };
        expect(leases()).toHaveLength(1);
        await leader.handOver();
        expect(leases()).toEqual([]);
        expect(leader.whereAndWho().syncing).toBe(false);
        // Still answers from what it holds while the process finishes its requests.
        await expect(leader.queries()).resolves.toBeDefined();
        await leader.stop();
      });
    } finally {
      rmSync(ownDir, { recursive: true, force: true });
    }
  });
});

describe('the index service on an index written before name pairs', () => {
  it('gives every record its pairs in the background, and a first and last name then finds them', async () => {
    const ownDir = mkdtempSync(join(tmpdir(), 'index-pairs-'));
    const path = join(ownDir, 'index.sqlite');
    const pairs = () => {
      const db = new Database(path, { readonly: true });
      try {
        return (db.prepare("select count(*) as n from contact_tokens where kind = 'name2'").get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    try {
      await withOtherService({ INDEX_PATH: path }, async (first) => {
        first.start();
        await expect.poll(async () => (await first.status()).state, { timeout: 15_000 }).toBe('ready');
        await first.stop();
      });
      const written = pairs();
      expect(written).toBeGreaterThan(0);
      // As the version before left it: no pair tokens, and no mark of them.
      const db = new Database(path);
      db.prepare("delete from contact_tokens where kind = 'name2'").run();
      db.prepare("delete from index_meta where key like 'name_pairs:%'").run();
      db.close();

      await withOtherService({ INDEX_PATH: path }, async (upgraded) => {
        upgraded.start();
        await expect.poll(pairs, { timeout: 15_000 }).toBe(written);
        const [id, contact] = Object.entries(sandbox.demo.contacts)[0]!;
        const { defaults, filterSchema } = await import('@/lib/api/list-state');
        const hits = await (
          await upgraded.queries()
        ).search(`${contact.lastName} ${contact.firstName}`, defaults(filterSchema), 1, 100);
        expect(hits.data.map((h) => h.id)).toContain(id);
        await upgraded.stop();
      });
    } finally {
      rmSync(ownDir, { recursive: true, force: true });
    }
  });
});

describe('the index service turned off', () => {
  it('never opens a file when asked for queries, facets or a reader (INDEX=off)', async () => {
    const offDir = mkdtempSync(join(tmpdir(), 'index-off-'));
    try {
      await withOtherService({ INDEX: 'off', INDEX_PATH: join(offDir, 'index.sqlite') }, async (off) => {
        for (const call of [() => off.queries(), () => off.facets(), () => off.readerSpec()])
          await expect(call()).rejects.toMatchObject({ code: 'index_unavailable', message: /INDEX=off/ });
        expect((await off.status()).state).toBe('off');
        expect(existsSync(join(offDir, 'index.sqlite'))).toBe(false);
      });
    } finally {
      rmSync(offDir, { recursive: true, force: true });
    }
  });
});

describe('the index service on a PostgreSQL that does not answer', () => {
  it('turns off with the reason, naming the host and never the password, and answers index_unavailable', async () => {
    const pgDir = mkdtempSync(join(tmpdir(), 'index-pg-'));
    try {
      // Port 9 (discard): nothing listens, the connection is refused at once.
      const env = {
        DATABASE_URL: 'postgres://console:pg-password-never-shown@127.0.0.1:9/console',
        INDEX_PATH: join(pgDir, 'index'),
      };
      await withOtherService(env, async (down) => {
        await expect(down.queries()).rejects.toMatchObject({ code: 'index_unavailable' });
        const status = await down.status();
        expect(status.state).toBe('off');
        expect(status.reason).toBe(
          "The index's database (PostgreSQL at 127.0.0.1:9/console) cannot be reached (ECONNREFUSED). Search and filters are off until it answers; trying again within 10 seconds.",
        );
        expect(down.whereAndWho()).toEqual({ store: 'PostgreSQL at 127.0.0.1:9/console', syncing: null });
        await down.stop();
      });
    } finally {
      rmSync(pgDir, { recursive: true, force: true });
    }
  });
});

describe('the index service on a PostgreSQL restarted under it', () => {
  // A real server: CI installs PostgreSQL (.ci/run); a machine without it skips this test, as the replicas' e2e.
  it.skipIf(!postgresBinaries() && !process.env.CI)(
    'closes on the statements the restart cut off, and searches its rows again once the server is back',
    async () => {
      const server = await startPostgres({ port: 5642 });
      const pgDir = mkdtempSync(join(tmpdir(), 'index-pg-restart-'));
      try {
        await withOtherService({ DATABASE_URL: server.url, INDEX_PATH: join(pgDir, 'index') }, async (replica) => {
          replica.start();
          await expect.poll(async () => (await replica.status()).state, { timeout: 30_000 }).toBe('ready');
          const [id, contact] = Object.entries(sandbox.demo.contacts)[0]!;
          // As a route does: a search, and a store error met on the way handed to the index.
          const search = async () => {
            try {
              return (await (await replica.queries()).search(contact.email, defaults(filterSchema), 1, 10)).data.map(
                (hit) => hit.id,
              );
            } catch (error) {
              // A later statement after the fault closed the connection: 503, nothing handed on (reads/collections.ts).
              if (closedUnder(error)) return 'index_unavailable';
              if (storeFault(error)) await replica.storeFault(error);
              return (error as { code?: string }).code ?? String(error);
            }
          };
          expect(await search()).toEqual([id]);
          // People keep searching while the server restarts (fast: its clients cut off).
          let restarting = true;
          const answers: unknown[] = [];
          const searching = (async () => {
            while (restarting) {
              answers.push(await search());
              await new Promise((resolve) => setTimeout(resolve, 10));
            }
          })();
          await server.restart();
          restarting = false;
          await searching;
          const failures = answers.filter((a) => !Array.isArray(a));
          // What the restart cut off is the database's (a connection ended, refused or starting up, or closed by
          // the fault under a search's later statement), and the index said so as `index_unavailable` while it
          // was closed; nothing else failed.
          expect(failures.length).toBeGreaterThan(0);
          for (const failure of failures)
            expect(failure).toMatch(/^(57P01|57P03|ECONNREFUSED|ECONNRESET|index_unavailable)$|Connection terminated/);
          expect(answers.filter(Array.isArray).every((ids) => (ids as string[])[0] === id)).toBe(true);
          // Back by itself, with its rows, and syncing again.
          await expect.poll(search, { timeout: 20_000, interval: 250 }).toEqual([id]);
          await expect.poll(async () => (await replica.status()).state, { timeout: 20_000 }).toBe('ready');
          await expect.poll(() => replica.whereAndWho().syncing, { timeout: 20_000 }).toBe(true);
          await replica.stop();
        });
      } finally {
        await server.stop();
        rmSync(pgDir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
