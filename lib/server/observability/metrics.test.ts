import { describe, expect, it } from 'vitest';
import { pageRoute } from './metrics';

describe('page route labels', () => {
  it.each([
    ['/collections', '/collections'],
    ['/collections/pay_abc', '/collections/[id]'],
    ['/collections/anything-typed', '/collections/[id]'],
    ['/providers/prv_x', '/providers/[id]'],
    ['/overview', '/overview'],
    ['/status', '/status'],
    ['/', '/'],
    ['/collections/pay_a/b', 'other'],
    ['/wp-admin.php', 'other'],
    ['/search/ada@example.com', 'other'],
  ])('%s → %s', (path, route) => {
    expect(pageRoute(path)).toBe(route);
  });
});
