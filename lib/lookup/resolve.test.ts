import { describe, expect, it } from 'vitest';
import { lookupTsv, resolveFinding, resultText, type Resolution } from './resolve';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const failureBody = (code: string, message: string) => ({ status: 'error', code, message });
const signal = new AbortController().signal;
const money = (a: { value: number; currency: string }) => `${a.currency} ${a.value}`;

const hit = (id: string, reference: string, matched: string[]) => ({
  id,
  reference,
  status: 'pending',
  type: 'integrated',
  amount: { value: 500, currency: 'NGN' },
  contact: { firstName: 'Ada', lastName: 'Obi' },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  completedAt: null,
  lineItemCount: 1,
  matched,
});

function fakeFetch(routes: Record<string, Response>) {
  const asked: string[] = [];
  const fetchImpl = async (path: string) => {
    asked.push(path);
    const response = routes[path];
    if (!response) throw new TypeError('fetch failed');
    return response;
  };
  return { fetchImpl, asked };
}

describe('resolveFinding', () => {
  it('reads a collection id live and sums it up', async () => {
    const { fetchImpl, asked } = fakeFetch({
      '/api/collections/pay_1': json(200, {
        data: { reference: 'INV-1', status: 'pending', amount: { value: 9, currency: 'USD' } },
      }),
    });
    await expect(resolveFinding({ kind: 'collection', value: 'pay_1' }, fetchImpl, signal)).resolves.toEqual({
      state: 'found',
      href: '/collections/pay_1',
      collection: { reference: 'INV-1', status: 'pending', amount: { value: 9, currency: 'USD' } },
    });
    expect(asked).toEqual(['/api/collections/pay_1']);
  });

  it('reads a provider id live', async () => {
    const { fetchImpl } = fakeFetch({ '/api/providers/prv_1': json(200, { data: { name: 'Acme', enabled: false } }) });
    await expect(resolveFinding({ kind: 'provider', value: 'prv_1' }, fetchImpl, signal)).resolves.toMatchObject({
      state: 'found',
      provider: { name: 'Acme', enabled: false },
    });
  });

  it('tells not found, another account, and a retryable error apart', async () => {
    const { fetchImpl } = fakeFetch({
      '/api/collections/pay_gone': json(404, failureBody('not_found', 'Collection not found')),
      '/api/collections/pay_theirs': json(403, failureBody('forbidden', 'belongs to a different account')),
      '/api/collections/pay_busy': json(429, failureBody('rate_limited', 'Rate limited, retry in 3 s'), {
        'retry-after': '3',
      }),
      '/api/collections/pay_bad': json(502, failureBody('upstream_invalid', 'unreadable')),
    });
    const resolve = (value: string) => resolveFinding({ kind: 'collection', value }, fetchImpl, signal);
    await expect(resolve('pay_gone')).resolves.toEqual({ state: 'not_found' });
    await expect(resolve('pay_theirs')).resolves.toEqual({ state: 'other_account' });
    await expect(resolve('pay_busy')).resolves.toMatchObject({ state: 'error', code: 'rate_limited', retryable: true });
    await expect(resolve('pay_bad')).resolves.toMatchObject({
      state: 'error',
      code: 'upstream_invalid',
      retryable: false,
    });
    await expect(resolve('pay_offline')).resolves.toMatchObject({ state: 'error', retryable: true });
  });

  it('counts only search hits on the finding’s own kind', async () => {
    const q = (value: string) => `/api/search?${new URLSearchParams({ q: value, limit: '10' })}`;
    const { fetchImpl } = fakeFetch({
      [q('ada@x.io')]: json(200, {
        data: [hit('pay_a', 'R1', ['email']), hit('pay_b', 'R2', ['name'])],
        meta: { count: 2 },
      }),
      [q('nobody@x.io')]: json(200, { data: [hit('pay_c', 'R3', ['name'])], meta: { count: 1 } }),
      [q('+234 801')]: json(200, {
        data: [hit('pay_d', 'R4', ['phone']), hit('pay_e', 'R5', ['phone'])],
        meta: { count: 2 },
      }),
    });
    await expect(resolveFinding({ kind: 'email', value: 'ada@x.io' }, fetchImpl, signal)).resolves.toMatchObject({
      state: 'found',
      href: '/collections/pay_a',
    });
    await expect(resolveFinding({ kind: 'email', value: 'nobody@x.io' }, fetchImpl, signal)).resolves.toEqual({
      state: 'none',
    });
    await expect(resolveFinding({ kind: 'phone', value: '+234 801' }, fetchImpl, signal)).resolves.toMatchObject({
      state: 'matches',
      count: 2,
      href: '/search?q=%2B234+801',
      first: { id: 'pay_d' },
    });
  });

  it('finds a number written at home (phoneNational) and says whose it is', async () => {
    const q = `/api/search?${new URLSearchParams({ q: '0801 234 5678', limit: '10' })}`;
    const found = {
      ...hit('pay_n', 'R9', ['phoneNational']),
      contact: {
        firstName: 'Ada',
        lastName: 'Obi',
        email: 'ada@x.io',
        phone: '+234 803 123 5678',
        emailMasked: 'a•••@x.io',
        phoneMasked: '+234 ••• ••• 5678',
      },
    };
    const { fetchImpl } = fakeFetch({ [q]: json(200, { data: [found], meta: { count: 1 } }) });
    await expect(resolveFinding({ kind: 'phone', value: '0801 234 5678' }, fetchImpl, signal)).resolves.toEqual({
      state: 'found',
      href: '/collections/pay_n',
      collection: {
        reference: 'R9',
        status: 'pending',
        amount: { value: 500, currency: 'NGN' },
        person: 'Ada Obi · ada@x.io · +234 803 123 5678',
      },
    });
  });

  it('prefers the exact reference over references that only start with it, and reports the total when the page is full', async () => {
    const q = (value: string) => `/api/search?${new URLSearchParams({ q: value, limit: '10' })}`;
    const full = Array.from({ length: 10 }, (_, i) => hit(`pay_${i}`, `INV-7${i}`, ['reference']));
    const { fetchImpl } = fakeFetch({
      [q('inv-7')]: json(200, {
        data: [hit('pay_x', 'INV-70', ['reference']), hit('pay_y', 'INV-7', ['reference'])],
        meta: { count: 2 },
      }),
      [q('INV-')]: json(200, { data: full, meta: { count: 340 } }),
    });
    await expect(resolveFinding({ kind: 'reference', value: 'inv-7' }, fetchImpl, signal)).resolves.toMatchObject({
      state: 'found',
      href: '/collections/pay_y',
    });
    await expect(resolveFinding({ kind: 'reference', value: 'INV-' }, fetchImpl, signal)).resolves.toMatchObject({
      state: 'matches',
      count: 340,
    });
  });

  it('says the index is off as a retryable error', async () => {
    const { fetchImpl } = fakeFetch({
      '/api/search?q=a%40b.io&limit=10': json(
        503,
        failureBody('index_unavailable', 'Search and filters are unavailable: the index is off'),
      ),
    });
    await expect(resolveFinding({ kind: 'email', value: 'a@b.io' }, fetchImpl, signal)).resolves.toMatchObject({
      state: 'error',
      code: 'index_unavailable',
      message: 'Search and filters are unavailable: the index is off',
    });
  });
});

describe('lookupTsv', () => {
  it('writes a header and a row per finding, links absolute, no tab or break inside a cell', () => {
    const found: Resolution = {
      state: 'found',
      href: '/collections/pay_1',
      collection: { reference: 'INV\t1\n2', status: 'pending', amount: { value: 9, currency: 'USD' } },
    };
    const tsv = lookupTsv(
      [
        { finding: { kind: 'collection', value: 'pay_1' }, resolution: found },
        { finding: { kind: 'email', value: 'a@b.io' }, resolution: { state: 'none' } },
        { finding: { kind: 'collection', value: 'pay_2' }, resolution: undefined },
      ],
      'https://console.example.com',
      money,
    );
    expect(tsv.split('\n')).toEqual([
      'Found\tKind\tResult\tLink',
      'pay_1\tCollection id\tINV 1 2 · pending · USD 9\thttps://console.example.com/collections/pay_1',
      'a@b.io\tE-mail\tNo match in the index\t',
      'pay_2\tCollection id\tLooking up…\t',
    ]);
  });

  it('words every state', () => {
    expect(resultText({ state: 'other_account' }, money)).toBe('Belongs to a different account');
    expect(resultText({ state: 'not_found' }, money)).toBe('Not found');
    expect(resultText({ state: 'error', code: 'upstream_timeout', message: 'Too slow', retryable: true }, money)).toBe(
      'Error: Too slow',
    );
  });
});
