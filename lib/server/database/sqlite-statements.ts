import type Database from 'better-sqlite3';

/** The most statements a thread's connection keeps compiled. */
const PREPARED_AT_MOST = 500;

/**
 * The most text the kept statements may add up to. A compiled program's native memory grows with its text
 * (a 2,000-row insert of tokens: 28 KB of text, ~0.7 MB compiled), and a write of many rows at once has a
 * text of its own for each count of rows: kept by count alone, 500 such statements held ~400 MB of the
 * writer's thread in a first sync of 1,000,000 records (RSS peak 858 MB). Within ~1 MB of text (~25 MB
 * compiled) the few shapes that repeat (a slice of 1,000 records, tokens 2,000 a statement) stay compiled:
 * compiling one of those costs 1.5 ms beside its 2 ms run in memory. Emptied when full, as by count.
 */
const KEPT_TEXT_AT_MOST = 1_000_000;

/**
 * A connection's statements compiled once by their text (the reads' and the writer's threads): a search's
 * few shapes, a sync's few writes, run again and again. Emptied when full (by count or by text).
 */
export function preparedStatements(db: () => Database.Database, { textAtMost = KEPT_TEXT_AT_MOST } = {}) {
  const prepared = new Map<string, Database.Statement>();
  let text = 0;
  return (sql: string) => {
    let found = prepared.get(sql);
    if (!found) {
      found = db().prepare(sql);
      // One longer than the whole budget is compiled for its run alone.
      if (sql.length > textAtMost) return found;
      if (prepared.size >= PREPARED_AT_MOST || text + sql.length > textAtMost) {
        prepared.clear();
        text = 0;
      }
      prepared.set(sql, found);
      text += sql.length;
    }
    return found;
  };
}
