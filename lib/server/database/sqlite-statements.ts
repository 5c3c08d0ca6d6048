import type Database from 'better-sqlite3';

/** The most statements a thread's connection keeps compiled. */
const PREPARED_AT_MOST = 500;

/**
 * Statements longer than this are compiled for their one run, not kept: a write of many rows at once (a
 * first scan's 1,000 records, its tokens 2,000 a statement) has a text of its own for each count of rows,
 * and each compiled program holds native memory (~0.7 MB for a 2,000-row insert of tokens) until its object
 * is collected. Kept by count alone, 500 of them held ~400 MB of the writer's thread in a first sync of
 * 1,000,000 records (RSS peak 858 MB). Kept within ~1 MB of text instead, the ones let go had lived long
 * enough to wait for a full collection, which a thread allocating little rarely runs: 844 MB. Compiled for
 * their run alone they die young: 575 MB, at 1.5 ms a compile beside a run of several (measured).
 */
const KEPT_SQL_AT_MOST = 4_096;

/**
 * A connection's statements compiled once by their text (the reads' and the writer's threads): a search's
 * few shapes, a sync's few writes, run again and again. Emptied when full.
 */
export function preparedStatements(db: () => Database.Database) {
  const prepared = new Map<string, Database.Statement>();
  return (sql: string) => {
    if (sql.length > KEPT_SQL_AT_MOST) return db().prepare(sql);
    let found = prepared.get(sql);
    if (!found) {
      if (prepared.size >= PREPARED_AT_MOST) prepared.clear();
      found = db().prepare(sql);
      prepared.set(sql, found);
    }
    return found;
  };
}
