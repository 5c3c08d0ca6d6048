import type Database from 'better-sqlite3';

/** The most statements a thread's connection keeps compiled. */
const PREPARED_AT_MOST = 500;

/**
 * A connection's statements compiled once by their text (the reads' and the writer's threads): a search's
 * few shapes, a sync's few writes, run again and again. Emptied when full.
 */
export function preparedStatements(db: () => Database.Database) {
  const prepared = new Map<string, Database.Statement>();
  return (sql: string) => {
    let found = prepared.get(sql);
    if (!found) {
      if (prepared.size >= PREPARED_AT_MOST) prepared.clear();
      found = db().prepare(sql);
      prepared.set(sql, found);
    }
    return found;
  };
}
