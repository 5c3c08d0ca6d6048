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

describe("a thread's compiled statements", () => {
  let connection: ReturnType<typeof counted>;
  beforeEach(() => {
    connection = counted();
  });
  afterEach(() => connection.db.close());

  it('compiles a short statement once and runs it again and again', () => {
    const statement = preparedStatements(() => connection.db);
    for (let i = 0; i < 5; i++) statement('insert into t (a, b) values (?, ?)').run(i, `row ${i}`);
    expect(connection.compiled).toHaveLength(1);
    expect(statement('select count(*) as n from t').get()).toEqual({ n: 5 });
  });

  it('keeps no statement of many rows (each count of rows is a text of its own, rarely met again), yet runs it', () => {
    const statement = preparedStatements(() => connection.db);
    const rows = 1_000;
    const sql = `insert into t (a, b) values ${Array.from({ length: rows }, () => '(?, ?)').join(', ')}`;
    const parameters = Array.from({ length: rows }, (_, i) => [i, `row ${i}`]).flat();
    statement(sql).run(...parameters);
    statement(sql).run(...parameters);
    expect(connection.compiled).toEqual([sql, sql]);
    expect(statement('select count(*) as n from t').get()).toEqual({ n: 2_000 });
  });
});
