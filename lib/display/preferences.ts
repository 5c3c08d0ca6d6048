import { safeTimeZone } from '@/lib/format/dates';

/**
 * How this browser likes the pages shown, kept in one cookie so the server
 * renders them that way from the first byte (no flash of the other density or
 * of UTC times): row density, times in the viewer's zone or in UTC, and the
 * viewer's zone as the browser last reported it. Anything unreadable falls
 * back to the defaults; the cookie is never trusted beyond these three values.
 */
export type Density = 'comfortable' | 'compact';
export type TimesIn = 'local' | 'utc';
export type Display = { density: Density; times: TimesIn; zone: string | null };

export const DISPLAY_COOKIE = 'cc-display';
export const DEFAULT_DISPLAY: Display = { density: 'comfortable', times: 'local', zone: null };
const YEAR_S = 365 * 86_400;

export function parseDisplay(raw: string | undefined | null): Display {
  if (!raw || raw.length > 200) return DEFAULT_DISPLAY;
  const params = new URLSearchParams(raw);
  const zone = params.get('zone');
  return {
    density: params.get('density') === 'compact' ? 'compact' : 'comfortable',
    times: params.get('times') === 'utc' ? 'utc' : 'local',
    zone: zone && safeTimeZone(zone) === zone ? zone : null,
  };
}

export function serializeDisplay(display: Display): string {
  const params = new URLSearchParams({ density: display.density, times: display.times });
  if (display.zone) params.set('zone', display.zone);
  return params.toString();
}

/** The `Set-Cookie`-style string a browser writes with `document.cookie`. */
export function displayCookie(display: Display): string {
  return `${DISPLAY_COOKIE}=${encodeURIComponent(serializeDisplay(display))}; Path=/; Max-Age=${YEAR_S}; SameSite=Lax`;
}

/** The zone times are shown in: UTC when asked for, or until the browser has said where it is. */
export function displayZone(display: Display): string {
  return display.times === 'utc' || !display.zone ? 'UTC' : display.zone;
}
