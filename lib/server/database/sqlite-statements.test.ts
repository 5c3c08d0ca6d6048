import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { preparedStatements } from './sqlite-statements';

/** A connection whose compiles are counted. */
function counted() {
  const db = new Database(':memory:');
  db.exec('create table t (a integer, b text)');
  const compiled: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    compiled.push(sql);
    return prepare(sql);
  }) as typeof db.prepare;
  return { db, compiled };
}

/** An insert of `rows` rows: a text of its own for each count of rows. */
const insert = (rows: number) =>
  `insert into t (a, b) values ${Array.from({ length: rows }, () => '(?, ?)').join(', ')}`;
const values = (rows: number) => Array.from({ length: rows }, (_, i) => [i, `row ${i}`]).flat();

describe("a thread's compiled statements", () => {
  let connection: ReturnType<typeof counted>;
  beforeEach(() => {
    connection = counted();
  });
  afterEach(() => connection.db.close());

  it('compiles a statement once and runs it again and again, a write of many rows too', () => {
    const statement = preparedStatements(() => connection.db);
    for (let i = 0; i < 5; i++) statement('insert into t (a, b) values (?, ?)').run(i, `row ${i}`);
    for (let i = 0; i < 3; i++) statement(insert(1_000)).run(...values(1_000));
    expect(connection.compiled).toHaveLength(2);
    expect(statement('select count(*) as n from t').get()).toEqual({ n: 3_005 });
  });

  it('keeps no more text than its budget: many counts of rows empty it, and the shapes that repeat are compiled again', () => {
    const budget = insert(100).length * 3;
    const statement = preparedStatements(() => connection.db, { textAtMost: budget });
    statement(insert(100)).run(...values(100));
    statement(insert(100)).run(...values(100));
    expect(connection.compiled).toHaveLength(1);
    // Three more counts of rows pass the budget: everything kept so far goes.
    for (const rows of [101, 102, 103]) statement(insert(rows)).run(...values(rows));
    statement(insert(100)).run(...values(100));
    expect(connection.compiled.map((sql) => sql.length)).toEqual(
      [100, 101, 102, 103, 100].map((rows) => insert(rows).length),
    );
    // One longer than the whole budget runs, compiled each time.
    statement(insert(400)).run(...values(400));
    statement(insert(400)).run(...values(400));
    expect(connection.compiled.filter((sql) => sql === insert(400))).toHaveLength(2);
    expect(statement('select count(*) as n from t').get()).toEqual({ n: 100 * 3 + 101 + 102 + 103 + 800 });
  });
});
