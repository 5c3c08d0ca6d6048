import 'server-only';
import { storeFault } from './connect';
import type { DatabaseState } from './database-state';

/**
 * A database that does not answer (restarting, failing over) is asked again sooner than a full disk: every
 * second for the first RECONNECT_FAST_FOR_MS of the outage, then every RECONNECT_MS. A fast restart of
 * PostgreSQL is back in a few seconds, and an attempt costs a refused connection, whereas a single wait of
 * RECONNECT_MS from the fault keeps search off up to that long after the server answers again.
 */
export const RECONNECT_FIRST_MS = 1_000;
export const RECONNECT_FAST_FOR_MS = 30_000;
export const RECONNECT_MS = 10_000;
export const REOPEN_MS = 60_000;

/** Holds the database closed after `error`; false when it already is (nothing new to say). */
export function hold(state: DatabaseState, error: unknown): boolean {
  const now = state.clock.now();
  // Statements in flight when the server went away fail together: one outage, held (and logged) once.
  if (state.failure && now < state.failure.until) return false;
  if (storeFault(error) !== 'unreachable') {
    state.failure = { error, until: now + REOPEN_MS };
    return true;
  }
  state.unansweredSince ??= now;
  const wait = now - state.unansweredSince < RECONNECT_FAST_FOR_MS ? RECONNECT_FIRST_MS : RECONNECT_MS;
  state.failure = { error, until: now + wait };
  return true;
}

/** The failure holding the database closed, or null once its retry time has come (or there is none). */
export function heldFailure(state: DatabaseState): { error: unknown; until: number } | null {
  return state.failure && state.clock.now() < state.failure.until ? state.failure : null;
}
