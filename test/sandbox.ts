import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../sandbox/db';
import type { Fixtures } from '../sandbox/fixtures';
import { createSandbox } from '../sandbox/server';

/**
 * A real sandbox over HTTP for unit tests: its own database in a temp folder,
 * listening on a free loopback port. Tests exercise real sockets, not mocks.
 */
export async function startSandbox(options: { faults?: boolean; slowMs?: number } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-test-'));
  const db = openDatabase(join(dir, 'sandbox.sqlite'));
  const server = createSandbox({ db, faults: options.faults ?? true, slowMs: options.slowMs ?? 2_000 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fixtures = (await (await fetch(`${url}/__sandbox/fixtures`)).json()) as Fixtures;
  return {
    url,
    fixtures,
    demo: fixtures.accounts.find((a) => a.id === 'acc_demo')!,
    other: fixtures.accounts.find((a) => a.id === 'acc_other')!,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type TestSandbox = Awaited<ReturnType<typeof startSandbox>>;
