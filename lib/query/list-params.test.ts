import { describe, expect, it } from 'vitest';
import { collectionsHref, correctedCollectionsUrl, listParamsFrom } from './list-params';

const corrected = (query: string) => correctedCollectionsUrl(new URLSearchParams(query));

describe('collections URL state', () => {
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

  it('parses with the same rules on the client', () => {
    const read = (query: string) => listParamsFrom(new URLSearchParams(query));
    expect(read('page=4&limit=50')).toEqual({ page: 4, limit: 50 });
    expect(read('page=1.5')).toEqual({ page: 1, limit: 10 });
    expect(read('limit=9999')).toEqual({ page: 1, limit: 100 });
    expect(read('')).toEqual({ page: 1, limit: 10 });
  });

  it('leaves defaults out of hrefs', () => {
    expect(collectionsHref({ page: 1, limit: 10 })).toBe('/collections');
    expect(collectionsHref({ page: 3, limit: 25 })).toBe('/collections?page=3&limit=25');
    expect(collectionsHref({ page: 1, limit: 50 })).toBe('/collections?limit=50');
  });

  it('keeps other query parameters in hrefs', () => {
    expect(collectionsHref({ page: 2, limit: 10 }, new URLSearchParams('utm=x&page=9'))).toBe('/collections?utm=x&page=2');
  });
});
