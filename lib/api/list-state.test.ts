import { describe, expect, it } from 'vitest';
import {
  collectionsHref,
  contactOfPath,
  contactPath,
  defaults,
  readViewState,
  viewHref,
  isIndexed,
  listStateSchema,
  type ListState,
  correctedCollectionsUrl,
  lastPage,
  nearestPageSize,
  PAGING,
  pagingSchema,
  parseListState,
  readListState,
  stateQuery,
  toSearchParams,
} from './list-state';

type Raw = string | string[] | undefined;
const state = (page: number, limit: number, rest: Partial<ListState> = {}): ListState => ({
  ...defaults(listStateSchema),
  page,
  limit,
  ...rest,
});
const strict = (input: { page?: Raw; limit?: Raw }) => parseListState(toSearchParams(input));
const correct = (input: { page?: Raw; limit?: Raw }) => readListState(toSearchParams(input));

describe('strict mode (the API)', () => {
  it('defaults to page 1 and limit 10', () => {
    expect(strict({})).toEqual({ ok: true, value: { page: 1, limit: 10, sort: '-createdAt' } });
  });

  it('accepts plain whole numbers in range', () => {
    expect(strict({ page: '3', limit: '100' })).toEqual({
      ok: true,
      value: { page: 3, limit: 100, sort: '-createdAt' },
    });
    expect(strict({ page: '99000001', limit: '1' })).toEqual({
      ok: true,
      value: { page: 99000001, limit: 1, sort: '-createdAt' },
    });
  });

  it.each(['0', '-1', 'abc', '1.5', '1e3', '0x10', ' 1', '1 ', '+1', '01', '', '99999999999999999'])(
    'rejects page=%j',
    (page) => {
      const result = strict({ page });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.message).toMatch(/page must be a whole number/);
    },
  );

  it.each(['0', '101', '1000', '-5', '10.0', 'ten'])('rejects limit=%j, naming the parameter', (limit) => {
    expect(strict({ limit })).toEqual({
      ok: false,
      param: 'limit',
      message: 'limit must be a whole number from 1 to 100',
    });
  });

  it('rejects a repeated parameter', () => {
    expect(parseListState(new URLSearchParams('limit=10&limit=20'))).toEqual({
      ok: false,
      param: 'limit',
      message: 'Give limit only once',
    });
  });

  it('reads URLSearchParams', () => {
    expect(parseListState(new URLSearchParams('page=2&limit=25&other=x'))).toEqual({
      ok: true,
      value: { page: 2, limit: 25, sort: '-createdAt' },
    });
  });
});

describe('corrective mode (the pages: nearest valid state)', () => {
  it('keeps valid values', () => {
    expect(correct({ page: '4', limit: '50' })).toEqual({ page: 4, limit: 50, sort: '-createdAt' });
  });

  it('corrects garbage to the defaults', () => {
    expect(correct({ page: 'abc', limit: '9999' })).toEqual({ page: 1, limit: 100, sort: '-createdAt' });
    expect(correct({ page: '-2', limit: 'x' })).toEqual({ page: 1, limit: 10, sort: '-createdAt' });
  });

  it('takes the first of repeated values and trims spaces', () => {
    expect(correct({ page: ['2', '9'], limit: ' 25 ' })).toEqual({ page: 2, limit: 25, sort: '-createdAt' });
  });

  it('snaps a limit off the menu to the nearest page size', () => {
    expect(nearestPageSize(30)).toBe(25);
    expect(nearestPageSize(40)).toBe(50);
    expect(nearestPageSize(0)).toBe(10);
    expect(nearestPageSize(1)).toBe(10);
  });

  it('reads the browser URL with the same rules', () => {
    const read = (query: string) => readListState(new URLSearchParams(query));
    expect(read('page=4&limit=50')).toEqual({ page: 4, limit: 50, sort: '-createdAt' });
    expect(read('page=1.5')).toEqual({ page: 1, limit: 10, sort: '-createdAt' });
    expect(read('limit=9999')).toEqual({ page: 1, limit: 100, sort: '-createdAt' });
    expect(read('')).toEqual({ page: 1, limit: 10, sort: '-createdAt' });
  });
});

describe('the corrected /collections URL (proxy.ts)', () => {
  const corrected = (query: string) => correctedCollectionsUrl(new URLSearchParams(query));

  it('leaves valid and absent values alone', () => {
    expect(corrected('')).toBeNull();
    expect(corrected('page=3&limit=25')).toBeNull();
    expect(corrected('page=1')).toBeNull();
  });

  it('corrects invalid values in place', () => {
    expect(corrected('page=abc&limit=9999')).toBe('/collections?page=1&limit=100');
    expect(corrected('page=0')).toBe('/collections?page=1&limit=10');
    expect(corrected('page=2&limit=30')).toBe('/collections?page=2&limit=25');
    expect(corrected('page=2&page=3')).toBe('/collections?page=2&limit=10');
    expect(corrected('page=%201')).toBe('/collections?page=1&limit=10');
  });

  it('keeps other query parameters', () => {
    expect(corrected('utm=x&limit=7')).toBe('/collections?utm=x&page=1&limit=10');
  });
});

describe('query strings (one writer)', () => {
  it('leaves defaults out of hrefs', () => {
    expect(collectionsHref(state(1, 10))).toBe('/collections');
    expect(collectionsHref(state(3, 25))).toBe('/collections?page=3&limit=25');
    expect(collectionsHref(state(1, 50))).toBe('/collections?limit=50');
  });

  it('keeps other query parameters in hrefs', () => {
    expect(collectionsHref(state(2, 10), new URLSearchParams('utm=x&page=9'))).toBe('/collections?utm=x&page=2');
  });

  it('writes every value when asked to be explicit (the upstream and /api calls)', () => {
    expect(stateQuery(pagingSchema, { page: 1, limit: 10 }, { explicit: PAGING })).toBe('page=1&limit=10');
  });
});

describe('lastPage', () => {
  it('counts whole pages and never goes below 1', () => {
    expect(lastPage(253, 10)).toBe(26);
    expect(lastPage(250, 10)).toBe(25);
    expect(lastPage(0, 10)).toBe(1);
  });
});

describe('filters and sort (the index)', () => {
  const strictQuery = (query: string) => parseListState(new URLSearchParams(query));

  it('reads every filter, lists split on commas', () => {
    const result = strictQuery(
      'status=pending,completed&currency=NGN&createdFrom=2026-01-01&createdTo=2026-01-31&amountMin=-5&amountMax=100&sort=-amount&q=Ada',
    );
    expect(result).toEqual({
      ok: true,
      value: state(1, 10, {
        status: ['pending', 'completed'],
        currency: ['NGN'],
        createdFrom: '2026-01-01',
        createdTo: '2026-01-31',
        amountMin: -5,
        amountMax: 100,
        sort: '-amount',
        q: 'Ada',
      }),
    });
  });

  it('reads control characters in q as spaces (a pasted line break, a NUL no store can be asked for)', () => {
    expect(strictQuery('q=ab%00c')).toEqual({ ok: true, value: state(1, 10, { q: 'ab c' }) });
    expect(strictQuery('q=Okafor%0AJos%C3%A9%09')).toEqual({ ok: true, value: state(1, 10, { q: 'Okafor José' }) });
    const blank = strictQuery('q=%00%0A%09');
    expect(blank.ok).toBe(false);
    if (!blank.ok) expect(blank.param).toBe('q');
  });

  it.each([
    ['sort=newest', 'sort'],
    ['createdFrom=2026-02-30', 'createdFrom'],
    ['createdTo=yesterday', 'createdTo'],
    ['amountMin=1.5', 'amountMin'],
    ['amountMax=1e3', 'amountMax'],
    ['amountMin=10&amountMax=9', 'amountMin'],
    ['createdFrom=2026-02-02&createdTo=2026-02-01', 'createdFrom'],
    ['completedFrom=2026-13-01', 'completedFrom'],
    ['completedFrom=2026-02-02&completedTo=2026-02-01', 'completedFrom'],
    ['q=', 'q'],
    [`q=${'x'.repeat(201)}`, 'q'],
    ['status=pending,,completed', 'status'],
    ['status=pending%00', 'status'],
    ['currency=NG%01N', 'currency'],
    ['change=pending%00>completed', 'change'],
    ['currency=NGN&currency=USD', 'currency'],
    ['contact=pay_123', 'contact'],
    ['contact=contact_bad!id', 'contact'],
    ['change=pending', 'change'],
    ['change=pending>completed>expired', 'change'],
    ['change=>completed', 'change'],
    ['changedSince=2026-11-24', 'changedSince'],
    ['changedSince=2026-11-24T25:00Z', 'changedSince'],
    ['changedSince=2026-02-30T10:00Z', 'changedSince'],
  ])('refuses %s, naming %s', (query, param) => {
    const result = strictQuery(query);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.param).toBe(param);
      expect(result.message).toContain(param);
    }
  });

  it('corrects a hand-edited URL: bad values dropped, a backwards range turned round', () => {
    expect(correctedCollectionsUrl(new URLSearchParams('status=pending&sort=bogus&amountMin=x'))).toBe(
      '/collections?page=1&limit=10&status=pending',
    );
    expect(correctedCollectionsUrl(new URLSearchParams('amountMin=10&amountMax=2'))).toBe(
      '/collections?page=1&limit=10&amountMin=2&amountMax=10',
    );
    expect(correctedCollectionsUrl(new URLSearchParams('status=pending&currency=NGN&sort=-amount'))).toBeNull();
  });

  it('corrects an amount typed by hand to the API’s integer form; the API stays strict', () => {
    expect(correctedCollectionsUrl(new URLSearchParams('amountMin=1,000,000&amountMax=NGN 2 000 000'))).toBe(
      '/collections?page=1&limit=10&amountMin=1000000&amountMax=2000000',
    );
    expect(correctedCollectionsUrl(new URLSearchParams('amountMin=₦5,000'))).toBe(
      '/collections?page=1&limit=10&amountMin=5000',
    );
    expect(parseListState(new URLSearchParams('amountMin=1,000,000'))).toMatchObject({ ok: false, param: 'amountMin' });
  });

  it('round-trips through the URL', () => {
    const s = state(3, 25, {
      status: ['pending'],
      currency: ['NGN', 'USD'],
      createdFrom: '2026-01-01',
      sort: 'amount',
    });
    const href = collectionsHref(s);
    expect(href).toBe(
      '/collections?page=3&limit=25&status=pending&currency=NGN%2CUSD&createdFrom=2026-01-01&sort=amount',
    );
    expect(readListState(new URLSearchParams(href.split('?')[1]))).toEqual(s);
  });

  it('reads a contact, a status change and the time since, and writes them back', () => {
    const result = strictQuery('contact=contact_8Hq2&change=pending%3Ecompleted&changedSince=2026-11-24T10:00Z');
    expect(result).toEqual({
      ok: true,
      value: state(1, 10, {
        contact: 'contact_8Hq2',
        change: { from: 'pending', to: 'completed' },
        changedSince: '2026-11-24T10:00Z',
      }),
    });
    const s = state(1, 10, { change: { from: 'on_hold', to: 'cancelled' }, changedSince: '2026-11-24T10:00:05.120Z' });
    const href = collectionsHref(s);
    expect(href).toBe('/collections?change=on_hold%3Ecancelled&changedSince=2026-11-24T10%3A00%3A05.120Z');
    expect(readListState(new URLSearchParams(href.split('?')[1]))).toEqual(s);
    expect(isIndexed(s)).toBe(true);
  });

  it('a contact page keeps its contact in the path, never in the query', () => {
    const path = contactPath('contact_8Hq2');
    expect(path).toBe('/contacts/contact_8Hq2');
    expect(contactOfPath(path)).toBe('contact_8Hq2');
    expect(contactOfPath('/contacts/nope')).toBeNull();
    const s = readViewState(path, new URLSearchParams('status=pending&contact=contact_other'));
    expect(s).toMatchObject({ contact: 'contact_8Hq2', status: ['pending'] });
    expect(viewHref(path, { ...s, page: 2 })).toBe('/contacts/contact_8Hq2?page=2&status=pending');
    expect(viewHref(path, defaults(listStateSchema))).toBe('/contacts/contact_8Hq2');
  });

  it('asks the index only for a filter, a search or a sort other than newest first', () => {
    expect(isIndexed(state(2, 50))).toBe(false);
    expect(isIndexed(state(1, 10, { sort: '-createdAt' }))).toBe(false);
    expect(isIndexed(state(1, 10, { sort: 'amount' }))).toBe(true);
    expect(isIndexed(state(1, 10, { status: ['pending'] }))).toBe(true);
    expect(isIndexed(state(1, 10, { q: 'ada' }))).toBe(true);
  });
});
