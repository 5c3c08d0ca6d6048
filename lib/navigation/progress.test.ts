import { describe, expect, it } from 'vitest';
import { leadsElsewhere } from './progress';

const here = new URL('http://console.test/collections?page=2');

describe('leadsElsewhere', () => {
  it.each([
    ['/collections/pay_abc', true],
    ['/collections?page=3', true],
    ['?page=3', true],
    ['http://console.test/overview', true],
    ['/collections?page=2', false],
    ['#main', false],
    ['/collections?page=2#raw', false],
    ['https://elsewhere.test/collections', false],
    ['http://[bad', false],
  ])('%s → %s', (href, expected) => {
    expect(leadsElsewhere(href, here)).toBe(expected);
  });
});
