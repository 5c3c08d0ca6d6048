import 'server-only';
import type { Clock } from '../clock';
import type { Connection, DatabaseTarget } from './connect';

/**
 * What one database (database.ts `createDatabase`) knows between calls, in one object that its parts
 * (database-hold.ts, database-open.ts, database-fault.ts) read and move on. One `DatabaseState` per
 * database; nothing in it is shared with another.
 */
export type DatabaseLog = {
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
};

export type DatabaseState = {
  readonly target: DatabaseTarget;
  /** The SQLite file, or null on PostgreSQL. */
  readonly path: string | null;
  /** Where it is, for logs: the file, or host, port and database; never credentials. */
  readonly where: string;
  readonly clock: Clock;
  readonly log: DatabaseLog;
  /** The open connection, or null while closed. */
  connection: Connection | null;
  /** The SQLite file's inode when it opened (0 on PostgreSQL): `replaced` compares the path's with it. */
  inode: number;
  /** Whether an open set a file aside since `takeSetAside` last answered. */
  setAside: boolean;
  /** The open under way; every caller meanwhile waits on this one. */
  opening: Promise<Connection> | null;
  /** The last open's or fault's error and when it may be opened again; in force while `now < until`. */
  failure: { error: unknown; until: number } | null;
  /** Closed on purpose (`close`): it never opens again. */
  closed: boolean;
  /** When the database stopped answering (the first fault or failed open since it last opened), or null. */
  unansweredSince: number | null;
};

export function newDatabaseState(target: DatabaseTarget, where: string, clock: Clock, log: DatabaseLog): DatabaseState {
  return {
    target,
    path: target.kind === 'sqlite' ? target.path : null,
    where,
    clock,
    log,
    connection: null,
    inode: 0,
    setAside: false,
    opening: null,
    failure: null,
    closed: false,
    unansweredSince: null,
  };
}

/** An error's code for the operator: a SQLite or SQLSTATE code, or a system one; never its message. */
export const codeOf = (error: unknown): string => {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^[\w-]{1,40}$/.test(code) ? code : 'unknown';
};
