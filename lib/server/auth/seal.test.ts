import { describe, expect, it } from 'vitest';
import { open, seal } from './seal';

const A = 'a'.repeat(32);
const B = 'b'.repeat(32);
const now = Date.parse('2026-11-23T12:00:00Z');

describe('sealed cookies', () => {
  it('opens what it sealed, for the same purpose, within its lifetime', async () => {
    const token = await seal({ email: 'ada@example.com' }, 'session', [A], 3600, now);
    expect(token).not.toContain('ada');
    expect(await open(token, 'session', [A], now + 1000)).toMatchObject({ email: 'ada@example.com', pur: 'session' });
    expect(await open(token, 'sign-in', [A], now)).toBeNull();
    expect(await open(token, 'session', [A], now + 3601_000)).toBeNull();
  });

  it('refuses a tampered, truncated or foreign token, without throwing', async () => {
    const token = await seal({ email: 'ada@example.com' }, 'session', [A], 3600, now);
    const parts = token.split('.');
    const flipped = parts[3]!.startsWith('A') ? `B${parts[3]!.slice(1)}` : `A${parts[3]!.slice(1)}`;
    for (const bad of [
      [...parts.slice(0, 3), flipped, parts[4]].join('.'),
      token.slice(0, -3),
      await seal({ email: 'ada@example.com' }, 'session', [B], 3600, now),
      'not a token',
      '',
      undefined,
      'x'.repeat(10_000),
    ])
      expect(await open(bad, 'session', [A], now)).toBeNull();
  });

  it('rotates: the first secret seals, every listed secret opens', async () => {
    const old = await seal({ email: 'ada@example.com' }, 'session', [A], 3600, now);
    expect(await open(old, 'session', [B, A], now)).toMatchObject({ email: 'ada@example.com' });
    const fresh = await seal({ email: 'ada@example.com' }, 'session', [B, A], 3600, now);
    expect(await open(fresh, 'session', [A], now)).toBeNull();
    expect(await open(fresh, 'session', [B], now)).not.toBeNull();
  });
});
