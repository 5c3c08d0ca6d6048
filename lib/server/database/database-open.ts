import 'server-only';
import { statSync } from 'node:fs';
import { openReads, type Connection } from './connect';
import { heldFailure, hold } from './database-hold';
import { codeOf, type DatabaseState } from './database-state';
import { openMigrated } from './migrate';
import { checkpointThread } from './sqlite-checkpoints';

/**
 * Opening and dropping the connection. One open at a time: callers that come while it is under way wait on
 * the same promise, and while a failure holds the database closed they get its error at once.
 */
export function openConnection(state: DatabaseState): Promise<Connection> {
  if (state.connection) return Promise.resolve(state.connection);
  if (state.closed) return Promise.reject(new Error('The database is closed'));
  const failure = heldFailure(state);
  if (failure) return Promise.reject(failure.error);
  state.opening ??= openMigrated(state.target, state.clock.now, { writerThread: true })
    .then(async (opened) => {
      // Closed while it opened (a busy file is tried again for seconds): nothing is left open behind it.
      if (state.closed) {
        await opened.connection.db.destroy().catch(() => {});
        throw new Error('The database is closed');
      }
      const connection = withThreads(state, opened.connection);
      state.connection = connection;
      state.setAside ||= opened.setAside;
      state.inode = state.path ? statSync(state.path).ino : 0;
      state.failure = null;
      state.unansweredSince = null;
      if (opened.setAside)
        state.log.warn({ database: state.where }, 'database: a file this version cannot migrate was set aside');
      return connection;
    })
    .catch((error: unknown) => {
      // Closed on purpose meanwhile: no failure to hold or log.
      if (!state.closed) {
        hold(state, error);
        state.log.error({ code: codeOf(error), database: state.where }, 'database: cannot open');
      }
      throw error;
    })
    .finally(() => {
      state.opening = null;
    });
  return state.opening;
}

/** The migrated connection with its reads pool or thread, and on SQLite the WAL checkpoints thread. */
function withThreads(state: DatabaseState, connection: Connection): Connection {
  const { path, where, log } = state;
  return {
    ...connection,
    reads: openReads(state.target),
    ...(path
      ? {
          checkpoints: checkpointThread(path, {
            onFailure: (why) =>
              log.warn({ why, database: where }, "database: WAL checkpoints are back on the writer's thread"),
          }),
        }
      : {}),
  };
}

/**
 * Closes the connection and its threads; never rejects. Callers that must not wait on a pool whose server
 * went away do not await it.
 */
export function drop(state: DatabaseState): Promise<void> {
  const current = state.connection;
  state.connection = null;
  return current
    ? Promise.all([current.checkpoints?.close(), current.db.destroy(), current.reads?.destroy()]).then(
        () => {},
        () => {},
      )
    : Promise.resolve();
}
