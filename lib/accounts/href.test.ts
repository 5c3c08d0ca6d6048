import { describe, expect, it } from 'vitest';
import { switchedHref, withAccount } from './href';

describe('the account in a link', () => {
  it('adds the account to the dashboard’s own addresses, keeping query and fragment', () => {
    expect(withAccount('/collections', 'acme')).toBe('/collections?account=acme');
    expect(withAccount('/collections?status=paid&q=a+b', 'acme')).toBe('/collections?status=paid&q=a+b&account=acme');
    expect(withAccount('/collections/pay_1#history', 'acme-test')).toBe('/collections/pay_1?account=acme-test#history');
    expect(withAccount('/api/export/collections.csv?status=paid', 'acme')).toBe(
      '/api/export/collections.csv?status=paid&account=acme',
    );
  });

  it('leaves alone what is not ours, what names an account already, and everything with one account', () => {
    expect(withAccount('https://example.com/x', 'acme')).toBe('https://example.com/x');
    expect(withAccount('//example.com/x', 'acme')).toBe('//example.com/x');
    expect(withAccount('#main', 'acme')).toBe('#main');
    expect(withAccount('/collections?account=other', 'acme')).toBe('/collections?account=other');
    expect(withAccount('/collections?status=paid', null)).toBe('/collections?status=paid');
  });

  it('switches a list with its filters, leaves a saved view behind and takes a record to the list', () => {
    expect(switchedHref('/collections', '?status=paid&view=v1&page=3&account=a', 'b')).toBe(
      '/collections?status=paid&account=b',
    );
    expect(switchedHref('/search', '?q=ada&account=all', 'b')).toBe('/search?q=ada&account=b');
    expect(switchedHref('/collections/pay_123', '?account=a', 'b')).toBe('/collections?account=b');
    expect(switchedHref('/providers/prv_1', '', 'b')).toBe('/collections?account=b');
  });
});
