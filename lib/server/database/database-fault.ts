import 'server-only';
import { statSync } from 'node:fs';
import { storeFault, type StoreFault } from './connect';
import { hold } from './database-hold';
import { drop } from './database-open';
import { codeOf, type DatabaseState } from './database-state';
import { setFileAside } from './migrate';

/**
 * What a database error means, acted on: `damaged` sets the file aside and closes (the next open starts
 * an empty one); `unwritable` and `unreachable` close and hold the database closed until the retry time;
 * `other` (a busy file, a deadlock: passing) and null (not the database's) change nothing.
 */
export async function actOnFault(state: DatabaseState, error: unknown): Promise<StoreFault | null> {
  const fault = storeFault(error);
  // A statement that came after the process closed the database on purpose: nothing to act on.
  if (state.closed) return fault;
  if (fault === 'damaged') {
    await reopen(state, `the database file is damaged (${codeOf(error)})`, true);
  } else if (fault === 'unwritable' || fault === 'unreachable') {
    if (hold(state, error))
      state.log.error({ code: codeOf(error), database: state.where }, 'database: fault; closed until it is fixed');
    // Not awaited: a pool whose server stopped answering may take long to end its clients.
    void drop(state);
  }
  return fault;
}

/** Closes the connection; `damaged` moves the file aside first. The next open connects again. */
export async function reopen(state: DatabaseState, why: string, damaged = false): Promise<void> {
  state.log.warn({ why, database: state.where }, 'database: reopening');
  await drop(state);
  state.failure = null;
  if (damaged && state.path) setFileAside(state.path, 'damaged', state.clock.now(), state.inode || null);
}

/** The SQLite file we opened is no longer the one at its path (deleted or replaced under us). */
export function replaced(state: DatabaseState): boolean {
  if (!state.path || !state.connection) return false;
  try {
    return statSync(state.path).ino !== state.inode;
  } catch {
    return true;
  }
}
