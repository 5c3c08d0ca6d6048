import { describe, expect, it } from 'vitest';
import { isAllowed, roleFor } from './identity';

const allow = { allowedEmails: ['ada@partner.test'], allowedDomains: ['example.com'] };

describe('allow-list', () => {
  it.each([
    ['ada@partner.test', true],
    ['ADA@Partner.Test', true],
    ['grace@example.com', true],
    ['grace@sub.example.com', false],
    ['grace@evil-example.com', false],
    ['grace@example.com.evil.test', false],
    ['bob@partner.test', false],
    ['example.com', false],
    ['@example.com', false],
    ['a@b@example.com', false],
    ['grace@', false],
    ['gr\u0000ace@example.com', false],
    ['grace\n@example.com', false],
  ])('%s → %s', (email, expected) => {
    expect(isAllowed(email, true, allow)).toBe(expected);
  });

  it('refuses an address the provider says is unverified, or no address at all', () => {
    expect(isAllowed('grace@example.com', false, allow)).toBe(false);
    expect(isAllowed('grace@example.com', undefined, allow)).toBe(true);
    expect(isAllowed(undefined, true, allow)).toBe(false);
    expect(isAllowed(42, true, allow)).toBe(false);
  });
});

describe('roles', () => {
  it('without DASHBOARD_ADMINS: Basic users and open mode are admins, signed-in users viewers', () => {
    expect(roleFor('basic', 'ada', [])).toBe('admin');
    expect(roleFor('open', 'open access', [])).toBe('admin');
    expect(roleFor('session', 'grace@example.com', [])).toBe('viewer');
  });

  it('with DASHBOARD_ADMINS: only those listed', () => {
    const admins = ['grace@example.com', 'ada'];
    expect(roleFor('session', 'Grace@Example.com', admins)).toBe('admin');
    expect(roleFor('session', 'bob@example.com', admins)).toBe('viewer');
    expect(roleFor('basic', 'ada', admins)).toBe('admin');
    expect(roleFor('basic', 'bob', admins)).toBe('viewer');
    expect(roleFor('open', 'ada', admins)).toBe('viewer');
  });
});
