import { describe, expect, it } from 'vitest';
import { DEFAULT_DISPLAY, displayCookie, displayZone, parseDisplay, serializeDisplay } from './preferences';

describe('display preferences', () => {
  it('round-trips through the cookie value', () => {
    const display = { density: 'compact', times: 'utc', zone: 'Europe/London' } as const;
    expect(parseDisplay(serializeDisplay(display))).toEqual(display);
    expect(displayCookie(display)).toBe(
      'cc-display=density%3Dcompact%26times%3Dutc%26zone%3DEurope%252FLondon; Path=/; Max-Age=31536000; SameSite=Lax',
    );
  });

  it.each([undefined, '', 'garbage', 'density=tiny&times=mars&zone=Nowhere%2FLand', `zone=${'x'.repeat(300)}`])(
    'falls back to the defaults for %j',
    (raw) => {
      expect(parseDisplay(raw)).toEqual(DEFAULT_DISPLAY);
    },
  );

  it('shows times in the viewer zone once known, in UTC when asked or before', () => {
    expect(displayZone({ density: 'comfortable', times: 'local', zone: 'Africa/Lagos' })).toBe('Africa/Lagos');
    expect(displayZone({ density: 'comfortable', times: 'utc', zone: 'Africa/Lagos' })).toBe('UTC');
    expect(displayZone(DEFAULT_DISPLAY)).toBe('UTC');
  });
});
