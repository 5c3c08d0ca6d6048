import { describe, expect, it } from 'vitest';
import {
  collectionsHref,
  correctedCollectionsUrl,
  lastPage,
  nearestPageSize,
  pagingSchema,
  parseListState,
  readListState,
  stateQuery,
  toSearchParams,
} from './list-state';

type Raw = string | string[] | undefined;
const strict = (input: { page?: Raw; limit?: Raw }) => parseListState(toSearchParams(input));
const correct = (input: { page?: Raw; limit?: Raw }) => readListState(toSearchParams(input));

describe('strict mode (the API)', () => {
  it('defaults to page 1 and limit 10', () => {
    expect(strict({})).toEqual({ ok: true, value: { page: 1, limit: 10 } });
  });

  it('accepts plain whole numbers in range', () => {
    expect(strict({ page: '3', limit: '100' })).toEqual({ ok: true, value: { page: 3, limit: 100 } });
    expect(strict({ page: '99000001', limit: '1' })).toEqual({ ok: true, value: { page: 99000001, limit: 1 } });
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
      value: { page: 2, limit: 25 },
    });
  });
});

describe('corrective mode (the pages: nearest valid state)', () => {
  it('keeps valid values', () => {
    expect(correct({ page: '4', limit: '50' })).toEqual({ page: 4, limit: 50 });
  });

  it('corrects garbage to the defaults', () => {
    expect(correct({ page: 'abc', limit: '9999' })).toEqual({ page: 1, limit: 100 });
    expect(correct({ page: '-2', limit: 'x' })).toEqual({ page: 1, limit: 10 });
  });

  it('takes the first of repeated values and trims spaces', () => {
    expect(correct({ page: ['2', '9'], limit: ' 25 ' })).toEqual({ page: 2, limit: 25 });
  });

  it('snaps a limit off the menu to the nearest page size', () => {
    expect(nearestPageSize(30)).toBe(25);
    expect(nearestPageSize(40)).toBe(50);
    expect(nearestPageSize(0)).toBe(10);
    expect(nearestPageSize(1)).toBe(10);
  });

  it('reads the browser URL with the same rules', () => {
    const read = (query: string) => readListState(new URLSearchParams(query));
    expect(read('page=4&limit=50')).toEqual({ page: 4, limit: 50 });
    expect(read('page=1.5')).toEqual({ page: 1, limit: 10 });
    expect(read('limit=9999')).toEqual({ page: 1, limit: 100 });
    expect(read('')).toEqual({ page: 1, limit: 10 });
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
    expect(collectionsHref({ page: 1, limit: 10 })).toBe('/collections');
    expect(collectionsHref({ page: 3, limit: 25 })).toBe('/collections?page=3&limit=25');
    expect(collectionsHref({ page: 1, limit: 50 })).toBe('/collections?limit=50');
  });

  it('keeps other query parameters in hrefs', () => {
    expect(collectionsHref({ page: 2, limit: 10 }, new URLSearchParams('utm=x&page=9'))).toBe(
      '/collections?utm=x&page=2',
    );
  });

  it('writes every value when asked to be explicit (the upstream and /api calls)', () => {
    expect(stateQuery(pagingSchema, { page: 1, limit: 10 }, { explicit: true })).toBe('page=1&limit=10');
  });
});

describe('lastPage', () => {
  it('counts whole pages and never goes below 1', () => {
    expect(lastPage(253, 10)).toBe(26);
    expect(lastPage(250, 10)).toBe(25);
    expect(lastPage(0, 10)).toBe(1);
  });
});
