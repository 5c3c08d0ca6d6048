import { describe, expect, it } from 'vitest';
import { parseOpenTarget } from './open-target';

describe('parseOpenTarget', () => {
  it.each([
    ['pay_tgBQ5mvIyP9QqIdYhsYKUN', '/collections/pay_tgBQ5mvIyP9QqIdYhsYKUN'],
    ['  prv_1OOEVJ9kS61uMJsJ \n', '/providers/prv_1OOEVJ9kS61uMJsJ'],
    ['"pay_abc"', '/collections/pay_abc'],
    ["'prv_abc'", '/providers/prv_abc'],
    ['“pay_abc”', '/collections/pay_abc'],
    ['http://localhost:3000/collections/pay_abc?page=2', '/collections/pay_abc'],
    ['https://console.example.com/providers/prv_xyz/', '/providers/prv_xyz'],
    ['/collections/pay_abc#raw', '/collections/pay_abc'],
    // The prefix in capitals can only mean the lower-case one; the rest keeps its case.
    ['PAY_tgBQ5mvIyP9QqIdYhsYKUN', '/collections/pay_tgBQ5mvIyP9QqIdYhsYKUN'],
    ['Prv_1OOEVJ9kS61uMJsJ', '/providers/prv_1OOEVJ9kS61uMJsJ'],
    // The dashboard's own API links open the page.
    ['http://localhost:3000/api/collections/pay_abc', '/collections/pay_abc'],
    ['/api/providers/prv_xyz', '/providers/prv_xyz'],
    ['https://console.example.com/Collections/PAY_Abc', '/collections/pay_Abc'],
  ])('opens %j at %s', (input, href) => {
    expect(parseOpenTarget(input)).toMatchObject({ ok: true, href });
  });

  it.each(['', '   ', 'abc', 'pay_', 'pay_a b', 'contact_123', 'pay_../x', 'javascript:alert(1)', '12345'])(
    'refuses %j with a hint',
    (input) => {
      expect(parseOpenTarget(input)).toEqual({
        ok: false,
        message: 'Enter a collection id (pay_…), a provider id (prv_…) or a dashboard link',
      });
    },
  );

  it('explains a link that names no record', () => {
    expect(parseOpenTarget('https://console.example.com/settings')).toEqual({
      ok: false,
      message: 'That link does not point to a collection or provider',
    });
    expect(parseOpenTarget('http://x/collections/pay_a/events')).toMatchObject({ ok: false });
  });

  it('refuses a link whose id is invalid', () => {
    expect(parseOpenTarget('http://x/collections/pay_%2e%2e')).toMatchObject({ ok: false });
    expect(parseOpenTarget('http://x/providers/pay_abc')).toMatchObject({ ok: true, href: '/collections/pay_abc' });
  });
});
