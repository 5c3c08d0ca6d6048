import { describe, expect, it } from 'vitest';
import { idsFromHrefs, moved, neighbours, pageApiUrl, parseTrail, position, type Trail } from './trail';

const trail = (over: Partial<Trail> = {}): Trail => ({
  path: '/collections',
  keep: 'status=pending&sort=-amount',
  page: 2,
  limit: 3,
  count: 8,
  ids: ['pay_d', 'pay_e', 'pay_f'],
  active: 'pay_e',
  ...over,
});

describe('position', () => {
  it('counts across pages', () => {
    expect(position(trail(), 'pay_e')).toEqual({ index: 1, overall: 5 });
  });
  it('is null for a record the trail was not opened at', () => {
    expect(position(trail(), 'pay_d')).toBeNull();
    expect(position(null, 'pay_e')).toBeNull();
  });
});

describe('neighbours', () => {
  it('are on the same page in the middle', () => {
    expect(neighbours(trail(), 'pay_e')).toEqual({ previous: { id: 'pay_d' }, next: { id: 'pay_f' } });
  });
  it('cross to the page before and after at its edges', () => {
    expect(neighbours(trail({ active: 'pay_d' }), 'pay_d').previous).toEqual({ page: 1, take: 'last' });
    expect(neighbours(trail({ active: 'pay_f' }), 'pay_f').next).toEqual({ page: 3, take: 'first' });
  });
  it('stop at the ends of the view', () => {
    expect(
      neighbours(trail({ page: 1, ids: ['pay_a', 'pay_b', 'pay_c'], active: 'pay_a' }), 'pay_a').previous,
    ).toBeNull();
    expect(neighbours(trail({ page: 3, ids: ['pay_g', 'pay_h'], active: 'pay_h' }), 'pay_h').next).toBeNull();
  });
});

describe('pageApiUrl and moved', () => {
  it('asks the list or the search API for a page of the same view', () => {
    expect(pageApiUrl(trail(), 3)).toBe('/api/collections?status=pending&sort=-amount&page=3&limit=3');
    expect(pageApiUrl(trail({ path: '/search', keep: 'q=ada' }), 1)).toBe('/api/search?q=ada&page=1&limit=3');
  });
  it('moves within a page or onto another', () => {
    expect(moved(trail(), 'pay_f')).toMatchObject({ page: 2, active: 'pay_f' });
    expect(moved(trail(), 'pay_g', { page: 3, ids: ['pay_g', 'pay_h'] })).toMatchObject({
      page: 3,
      ids: ['pay_g', 'pay_h'],
      active: 'pay_g',
    });
  });
});

describe('parseTrail', () => {
  it('reads back a trail', () => {
    expect(parseTrail(JSON.stringify(trail()))).toEqual(trail());
  });
  it.each([
    null,
    'not json',
    JSON.stringify({ ...trail(), path: '/elsewhere' }),
    JSON.stringify({ ...trail(), page: 0 }),
    JSON.stringify({ ...trail(), ids: ['../etc'] }),
    JSON.stringify({ ...trail(), active: 'pay_zzz' }),
  ])('refuses %s', (raw) => {
    expect(parseTrail(raw)).toBeNull();
  });
});

describe('idsFromHrefs', () => {
  it('keeps each record once, in order, and nothing else', () => {
    expect(
      idsFromHrefs(['/collections/pay_a', '/collections/pay_a', '/providers/prv_x', '/collections/pay_b', '#']),
    ).toEqual(['pay_a', 'pay_b']);
  });
});
