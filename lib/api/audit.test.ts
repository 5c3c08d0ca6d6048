import { describe, expect, it } from 'vitest';
import { parseAuditQuery } from './audit';

const parse = (query: string) => parseAuditQuery(new URLSearchParams(query));

describe('audit query', () => {
  it('reads filters with defaults', () => {
    expect(parse('user=grace%40example.com&action=view_collection&target=pay_1&from=2026-11-01&to=2026-11-23')).toEqual(
      {
        ok: true,
        value: {
          user: 'grace@example.com',
          action: 'view_collection',
          target: 'pay_1',
          searched: undefined,
          from: '2026-11-01',
          to: '2026-11-23',
          page: 1,
          limit: 50,
        },
      },
    );
    expect(parse('action=&user=+')).toMatchObject({ ok: true, value: { action: undefined, user: undefined } });
  });

  it.each([
    ['action=delete_everything', 'action'],
    ['from=yesterday', 'from'],
    ['from=2026-11-23&to=2026-11-01', 'from'],
    ['page=0', 'page'],
    ['limit=500', 'limit'],
    [`target=${'x'.repeat(201)}`, 'target'],
    ['user=grace%00%40example.com', 'user'],
    ['searched=Oka%0Afor', 'searched'],
  ])('refuses %s, naming %s', (query, param) => {
    expect(parse(query)).toMatchObject({ ok: false, param });
  });
});
