import { describe, expect, it } from 'vitest';
import { correctListParams, lastPage, listParamsFromSearch, nearestPageSize, parseListParams } from './params';

describe('parseListParams (the API: strict)', () => {
  it('defaults to page 1 and limit 10', () => {
    expect(parseListParams({})).toEqual({ ok: true, value: { page: 1, limit: 10 } });
  });

  it('accepts plain whole numbers in range', () => {
    expect(parseListParams({ page: '3', limit: '100' })).toEqual({ ok: true, value: { page: 3, limit: 100 } });
    expect(parseListParams({ page: '99000001', limit: '1' })).toEqual({ ok: true, value: { page: 99000001, limit: 1 } });
  });

  it.each(['0', '-1', 'abc', '1.5', '1e3', '0x10', ' 1', '1 ', '+1', '01', '', '99999999999999999'])('rejects page=%j', (page) => {
    const result = parseListParams({ page });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/page must be a whole number/);
  });

  it.each(['0', '101', '1000', '-5', '10.0', 'ten'])('rejects limit=%j', (limit) => {
    const result = parseListParams({ limit });
    expect(result).toEqual({ ok: false, message: 'limit must be a whole number from 1 to 100' });
  });

  it('rejects a repeated parameter', () => {
    expect(listParamsFromSearch(new URLSearchParams('limit=10&limit=20'))).toEqual({ ok: false, message: 'Give limit only once' });
  });

  it('reads URLSearchParams', () => {
    expect(listParamsFromSearch(new URLSearchParams('page=2&limit=25&other=x'))).toEqual({ ok: true, value: { page: 2, limit: 25 } });
  });
});

describe('correctListParams (the pages: nearest valid state)', () => {
  it('keeps valid values', () => {
    expect(correctListParams({ page: '4', limit: '50' })).toEqual({ page: 4, limit: 50 });
  });

  it('corrects garbage to the defaults', () => {
    expect(correctListParams({ page: 'abc', limit: '9999' })).toEqual({ page: 1, limit: 100 });
    expect(correctListParams({ page: '-2', limit: 'x' })).toEqual({ page: 1, limit: 10 });
  });

  it('takes the first of repeated values and trims spaces', () => {
    expect(correctListParams({ page: ['2', '9'], limit: ' 25 ' })).toEqual({ page: 2, limit: 25 });
  });

  it('snaps a limit off the menu to the nearest page size', () => {
    expect(nearestPageSize(30)).toBe(25);
    expect(nearestPageSize(40)).toBe(50);
    expect(nearestPageSize(0)).toBe(10);
    expect(nearestPageSize(1)).toBe(10);
  });
});

describe('lastPage', () => {
  it('counts whole pages and never goes below 1', () => {
    expect(lastPage(253, 10)).toBe(26);
    expect(lastPage(250, 10)).toBe(25);
    expect(lastPage(0, 10)).toBe(1);
  });
});
