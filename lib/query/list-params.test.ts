import { describe, expect, it } from 'vitest';
import { collectionsHref, correctedCollectionsUrl, listParsers } from './list-params';

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
    expect(listParsers.page.parse('4')).toBe(4);
    expect(listParsers.page.parse('1.5')).toBe(1);
    expect(listParsers.limit.parse('9999')).toBe(100);
  });

  it('leaves defaults out of hrefs', () => {
    expect(collectionsHref({ page: 1, limit: 10 })).toBe('/collections');
    expect(collectionsHref({ page: 3, limit: 25 })).toBe('/collections?page=3&limit=25');
  });
});
