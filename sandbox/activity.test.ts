/**
 * Activity mode and the test-only change routes: the sandbox's list grows at
 * its head and pending collections get paid, with the seed's envelopes and
 * paging rules still exact, and the fixtures' records never touched.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectionEnvelopeSchema, collectionListEnvelopeSchema } from '../lib/api/envelopes';
import { createActivity } from './activity';
import { openDatabase } from './db';
import type { Fixtures } from './fixtures';
import { createSandbox } from './server';

let dir: string;
let base: string;
let close: () => Promise<void>;
let fixtures: Fixtures;

async function start(options: { faults?: boolean; writable?: boolean } = {}) {
  const db = openDatabase(join(dir, 'sandbox.sqlite'), { writable: options.writable ?? true });
  const server = createSandbox({ db, faults: options.faults ?? true });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fixtures = (await (await fetch(`${base}/__sandbox/fixtures`)).json()) as Fixtures;
  close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    db.close();
  };
}

const demoKey = { Authorization: 'Bearer sk_sandbox_demo' };
const list = async (query: string) =>
  collectionListEnvelopeSchema.parse(
    await (await fetch(`${base}/public/collections?${query}`, { headers: demoKey })).json(),
  );
const post = (path: string, body?: unknown) =>
  fetch(`${base}${path}`, { method: 'POST', body: body === undefined ? undefined : JSON.stringify(body) });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-activity-'));
});
afterEach(async () => {
  await close();
  rmSync(dir, { recursive: true, force: true });
});

describe('adding a collection', () => {
  it('puts it at the head of the list and shifts every page by one', async () => {
    await start();
    const before = await list('page=1&limit=100');
    const lastBefore = await list(`page=3&limit=100`);
    const res = await post('/__sandbox/collections', { record: { reference: 'TICKET-4711' } });
    expect(res.status).toBe(201);
    const { data: added } = (await res.json()) as { data: { id: string; reference: string; status: string } };
    expect(added).toMatchObject({ reference: 'TICKET-4711', status: 'pending' });

    const after = await list('page=1&limit=100');
    expect(after.meta.count).toBe(before.meta.count + 1);
    expect(after.data[0]!.id).toBe(added.id);
    expect(after.data.slice(1).map((c) => c.id)).toEqual(before.data.slice(0, 99).map((c) => c.id));
    // The last page ends with the same oldest record.
    const lastAfter = await list(`page=3&limit=100`);
    expect(lastAfter.data.at(-1)!.id).toBe(lastBefore.data.at(-1)!.id);
    const one = await fetch(`${base}/public/collections/${added.id}`, { headers: demoKey });
    expect(collectionEnvelopeSchema.parse(await one.json()).data.reference).toBe('TICKET-4711');
  });

  it('is refused without faults on, or on a read-only database', async () => {
    await start({ faults: false });
    expect((await post('/__sandbox/collections')).status).toBe(405);
    await close();
    await start({ writable: false });
    expect((await post('/__sandbox/collections')).status).toBe(405);
  });
});

describe('completing a collection', () => {
  it('marks it paid: status, completedAt, updatedAt and an event', async () => {
    await start();
    const { data: added } = (await (await post('/__sandbox/collections')).json()) as { data: { id: string } };
    const res = await post(`/__sandbox/collections/${added.id}/complete`);
    expect(res.status).toBe(200);
    const one = collectionEnvelopeSchema.parse(
      await (await fetch(`${base}/public/collections/${added.id}`, { headers: demoKey })).json(),
    ).data;
    expect(one.status).toBe('completed');
    expect(one.completedAt).not.toBeNull();
    expect(one.updatedAt).toBe(one.completedAt);
    expect(one.events.at(-1)).toMatchObject({ type: 'payment.received' });
    // Twice is a no-op.
    expect((await post(`/__sandbox/collections/${added.id}/complete`)).status).toBe(409);
  });

  it('never touches a record the fixtures name', async () => {
    await start();
    const demo = fixtures.accounts.find((a) => a.id === 'acc_demo')!;
    for (const id of [demo.collections.integrated[0]!, demo.examples.followUpOn!]) {
      expect((await post(`/__sandbox/collections/${id}/complete`)).status).toBe(409);
    }
  });
});

describe('activity mode', () => {
  it('adds at the head and now and then completes a pending one, deterministically from the seed', async () => {
    const runs = [];
    for (const name of ['a', 'b']) {
      const db = openDatabase(join(dir, `${name}.sqlite`), { writable: true });
      const activity = createActivity(db, { protectedIds: new Set() });
      const ticks = Array.from({ length: 12 }, () => activity.tick());
      runs.push(
        ticks.map((t) => [t.added.reference, t.added.contact.email, t.added.amount.value, t.completed?.id ?? null]),
      );
      expect(ticks.some((t) => t.completed)).toBe(true);
      db.close();
    }
    expect(runs[0]).toEqual(runs[1]);
    await start();
  });
});
