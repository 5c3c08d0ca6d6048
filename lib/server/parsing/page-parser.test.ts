import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectionEnvelopeSchema, collectionListEnvelopeSchema, parseBody } from '@/lib/api/envelopes';
import { FAULT_PAGES } from '@/sandbox/faults';
import { startSandbox, type TestSandbox } from '@/test/sandbox';
import { logger } from '../logger';
import { createUpstreamClient } from '../upstream';
import { createPageParser, type PageParser } from './page-parser';

let sandbox: TestSandbox;
const logs: string[] = [];
const parsers: PageParser[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ faults: true });
  for (const level of ['info', 'warn', 'error'] as const)
    vi.spyOn(logger, level).mockImplementation(((...args: unknown[]) => void logs.push(JSON.stringify(args))) as never);
});
afterAll(async () => {
  await Promise.all(parsers.map((p) => p.close()));
  await sandbox.close();
});

function reader() {
  const pages = createPageParser();
  parsers.push(pages);
  return {
    pages,
    upstream: createUpstreamClient({
      baseUrl: sandbox.url,
      key: 'sk_sandbox_demo',
      keyHeader: 'Authorization',
      timeoutMs: 5_000,
      retryDelayMs: 10,
      parse: pages.parse,
    }),
  };
}
const bytesOf = (text: string) => new TextEncoder().encode(text).buffer;
/** A list page's body as the sandbox sends it. */
const pageText = async (page: number, limit: number) =>
  (
    await fetch(`${sandbox.url}/public/collections?page=${page}&limit=${limit}`, {
      headers: { Authorization: 'Bearer sk_sandbox_demo' },
    })
  ).text();

describe('list pages read on a thread of their own', () => {
  it('gives what the calling thread would: the same page, every field, in order', async () => {
    const { upstream } = reader();
    const here = createUpstreamClient({
      baseUrl: sandbox.url,
      key: 'sk_sandbox_demo',
      keyHeader: 'Authorization',
      timeoutMs: 5_000,
    });
    const pages = await Promise.all(
      [1, 2, 3].map((page) => upstream.get({ kind: 'list', page, limit: 100 }, collectionListEnvelopeSchema)),
    );
    const same = await Promise.all(
      [1, 2, 3].map((page) => here.get({ kind: 'list', page, limit: 100 }, collectionListEnvelopeSchema)),
    );
    expect(pages).toEqual(same);
    expect(pages[0]!.data).toHaveLength(100);
    expect(parsers.at(-1)!.counts()).toEqual({ thread: 3, here: 0 });
    // Names with letters beyond ASCII arrive whole (the bytes are decoded as UTF-8 on the other thread).
    expect(JSON.stringify(pages)).toMatch(/[^\x00-\x7f]/);
  });

  it('says which answers break: invalid JSON and a field against the schema, each an upstream_invalid', async () => {
    const { upstream, pages } = reader();
    logs.length = 0;
    for (const page of [FAULT_PAGES.malformed, FAULT_PAGES.badshape])
      await expect(
        upstream.get({ kind: 'list', page, limit: 100 }, collectionListEnvelopeSchema),
      ).rejects.toMatchObject({ code: 'upstream_invalid' });
    expect(logs.some((l) => l.includes('upstream answered with invalid JSON'))).toBe(true);
    expect(logs.some((l) => l.includes('upstream answer breaks the schema') && l.includes('amount.value'))).toBe(true);
    expect(pages.counts()).toEqual({ thread: 2, here: 0 });
  });

  it('reads anything but a list page where it is asked, and a byte-order mark is dropped as Response.text() drops it', async () => {
    const { pages } = reader();
    const record = { status: 'success', message: 'ok', data: { nope: true } };
    expect(await pages.parse(collectionEnvelopeSchema, bytesOf(JSON.stringify(record)), 'collection')).toEqual(
      parseBody(collectionEnvelopeSchema, bytesOf(JSON.stringify(record))),
    );
    const page = await pageText(1, 5);
    expect(await pages.parse(collectionListEnvelopeSchema, bytesOf(`\ufeff${page}`), 'list')).toMatchObject({
      ok: true,
    });
    expect(pages.counts()).toEqual({ thread: 1, here: 0 });
  });

  it('reads every page here once its thread is gone, those it held too', async () => {
    const { pages } = reader();
    const page = bytesOf(await pageText(2, 100));
    const held = [
      pages.parse(collectionListEnvelopeSchema, page, 'list'),
      pages.parse(collectionListEnvelopeSchema, page, 'list'),
    ];
    await pages.close();
    for (const parsed of [...(await Promise.all(held)), await pages.parse(collectionListEnvelopeSchema, page, 'list')])
      expect(parsed).toMatchObject({ ok: true, data: { data: expect.any(Array) } });
    expect(pages.counts().here).toBeGreaterThanOrEqual(1);
    expect(pages.counts().thread + pages.counts().here).toBe(3);
  });
});
