import 'server-only';
import {
  sql,
  type Insertable,
  type InsertQueryBuilder,
  type InsertResult,
  type Kysely,
  type RawBuilder,
  type SqlBool,
} from 'kysely';
import { dialectOf } from './dialect';
import type { AppDatabase } from './schema';

type Table = keyof AppDatabase & string;

/**
 * Each table's column types on PostgreSQL, read once a process when the store is opened (`migrate`, after the
 * migrations, which fix them). Asked inside a write's transaction instead, the first writer's read served every
 * writer waiting on it: one account's transaction failing there (25P02) failed another's first insert.
 */
const columnTypes = new Map<string, Map<string, string>>();

/** Reads every table's column types (the tables the search path sees), for `insertRows`. PostgreSQL only. */
export async function loadColumnTypes(db: Kysely<AppDatabase>): Promise<void> {
  const { rows } = await sql<{ table: string; name: string; type: string }>`
    select c.relname as table, a.attname as name, format_type(a.atttypid, a.atttypmod) as type
    from pg_class c join pg_attribute a on a.attrelid = c.oid
    where c.relkind in ('r', 'p') and pg_table_is_visible(c.oid) and a.attnum > 0 and not a.attisdropped`.execute(db);
  const tables = new Map<string, Map<string, string>>();
  for (const { table, name, type } of rows) {
    let columns = tables.get(table);
    if (!columns) tables.set(table, (columns = new Map()));
    columns.set(name, type);
  }
  for (const [table, columns] of tables) columnTypes.set(table, columns);
}

/**
 * A table's column types: as loaded at open; else (a database no store opened, e.g. a tool's) asked here, in the
 * caller's own transaction, and kept once known (a read under way is not shared: another transaction's failure
 * must not fail this one).
 */
async function typesOf(db: Kysely<AppDatabase>, table: Table): Promise<Map<string, string>> {
  const known = columnTypes.get(table);
  if (known) return known;
  const { rows } = await sql<{
    name: string;
    type: string;
  }>`select attname as name, format_type(atttypid, atttypmod) as type
    from pg_attribute where attrelid = ${table}::regclass and attnum > 0 and not attisdropped`.execute(db);
  const types = new Map(rows.map((c) => [c.name, c.type]));
  columnTypes.set(table, types);
  return types;
}

/**
 * The columns every row gives a value (not `undefined`), or null when rows give different ones. Asked of every
 * insert a sync makes (a page's rows, its thousands of tokens): compared key by key, without a list of
 * entries a row (that way it cost a first scan's writes ~7 ms a page, before each statement was sent).
 */
function sharedColumns(rows: object[]): string[] | null {
  const first = rows[0] as Record<string, unknown>;
  const keys = Object.keys(first);
  const columns = keys.filter((key) => first[key] !== undefined);
  for (let i = 1; i < rows.length; i++) {
    const row = rows[i] as Record<string, unknown>;
    let given = 0;
    for (const key in row) if (row[key] !== undefined) given++;
    if (given !== columns.length) return null;
    for (const column of columns) if (row[column] === undefined) return null;
  }
  return columns;
}

/**
 * A column's values as PostgreSQL's array literal (`{"a","b\"c",NULL}`), as node-postgres writes a
 * parameter's array (every element quoted, a backslash and `"` escaped with a backslash), or null for a value it would turn into
 * text its own way (a Date, a Buffer, an object). Made while the insert is built: inside a transaction whose
 * statements are sent ahead (send-ahead.ts), while PostgreSQL runs the statement before, not when
 * node-postgres sends it (a first scan's page spent ~16 ms there, PostgreSQL waiting).
 */
export function arrayLiteral(values: readonly unknown[]): string | null {
  // Joined, not appended to: one flat string, not a rope node-postgres flattens again to measure and copy it.
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) parts[i] = 'NULL';
    else if (typeof value === 'string')
      // Tested first: most text (ids, times, sealed contacts) has nothing to escape.
      parts[i] = `"${/[\\"]/.test(value) ? value.replace(/\\/g, '\\\\').replace(/"/g, '\\"') : value}"`;
    else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
      parts[i] = `"${String(value)}"`;
    else return null;
  }
  return `{${parts.join(',')}}`;
}

/**
 * Rows as one JSON text of arrays (a row's values in `columns`' order), for SQLite's `jsonb_each`; or null when
 * a value is not one JSON carries as binding would (text, a finite number, null): a boolean, a bigint, a Buffer,
 * a Date, text with a lone surrogate (which binding and JSON would store as different bytes). A number lands as
 * bound only in a column of numeric affinity (integer, real, numeric), where every caller puts its numbers: in
 * a text column a bound 3 is '3.0' and JSON's '3'.
 */
export function jsonRows(rows: readonly object[], columns: readonly string[]): string | null {
  const arrays = new Array<unknown[]>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as Record<string, unknown>;
    const values = new Array<unknown>(columns.length);
    for (let c = 0; c < columns.length; c++) {
      const value = row[columns[c]!];
      if (typeof value === 'string') {
        if (!value.isWellFormed()) return null;
      } else if (value !== null && !(typeof value === 'number' && Number.isFinite(value))) return null;
      values[c] = value;
    }
    arrays[r] = values;
  }
  return JSON.stringify(arrays);
}

/**
 * An insert of many rows (at least one). On PostgreSQL one array a column:
 * `insert into t (a, b) select * from unnest($1::integer[], $2::text[])`. A page of 1,000 records of 10
 * columns is then 10 parameters, not 10,000: one statement text whatever the rows' count, which
 * PostgreSQL parses and plans and node-postgres binds in a fraction of the time (`npm run bench:writes`'s
 * method, side by side: a first scan's writes 23.5 → 18.0 s for 100,000 records, the process's CPU in them
 * 9.3 → 6.9 s; a page's insert planned in 2.8 ms, not 15.3). A whole first sync is level: it waits on
 * PostgreSQL running each insert, not on the binding (bench/README).
 * On SQLite one JSON text of the rows (`jsonRows`): `insert into t (a, b) select value ->> 0, value ->> 1 from
 * jsonb_each($1)`, one statement text whatever the rows' count too, which the writer's thread keeps compiled; a
 * list of values as Kysely writes it was built value by value on the request thread (~11 % of it in a first
 * sync), copied to the writer's thread value by value, and compiled there afresh for each count of rows.
 * `jsonb_each`, not `json_each`: each row's array reaches `->>` in SQLite's binary form, not as text it parses
 * again (1,000 rows of the details' 11 columns: 11-12 µs a row on the writer's thread, against 19-21 through
 * `json_each` and 17.4 bound value by value with the statement compiled).
 * For rows that do not all give the same columns, or values JSON does not carry as binding does, a list of
 * values as Kysely writes it.
 * Chain `onConflict` on what it returns as on any insert.
 */
export async function insertRows<T extends Table>(
  trx: Kysely<AppDatabase>,
  table: T,
  rows: Insertable<AppDatabase[T]>[],
): Promise<InsertQueryBuilder<AppDatabase, T, InsertResult>> {
  if (!rows.length) throw new Error(`insertRows: no rows for ${table}`);
  const columns = sharedColumns(rows);
  if (!columns) return trx.insertInto(table).values(rows);
  if (dialectOf(trx) === 'sqlite') {
    const json = jsonRows(rows, columns);
    if (json === null) return trx.insertInto(table).values(rows);
    // `where true`: an insert from a select followed by `on conflict` needs it (SQLite's parsing of `on`).
    return trx
      .insertInto(table)
      .columns(columns as never)
      .expression(
        sql`select ${sql.join(columns.map((_, i) => sql.raw(`value ->> ${i}`)))} from jsonb_each(${json}) where true` as never,
      );
  }
  const types = await typesOf(trx, table);
  const arrays = columns.map((column) => {
    const type = types.get(column);
    if (!type) throw new Error(`insertRows: ${table} has no column ${column}`);
    const values = rows.map((row) => (row as Record<string, unknown>)[column]);
    return sql`${arrayLiteral(values) ?? values}::${sql.raw(type)}[]`;
  });
  return trx
    .insertInto(table)
    .columns(columns as never)
    .expression(sql`select * from unnest(${sql.join(arrays)})` as never);
}

/**
 * `column in (…values)`, on PostgreSQL as `column = any($1)`: one parameter (an array) for a page's 1,000
 * ids, one statement text whatever their count. The planner sees the array's values as it sees a list's.
 */
export const isAnyOf = (db: Kysely<AppDatabase>, column: string, values: readonly unknown[]): RawBuilder<SqlBool> =>
  dialectOf(db) === 'postgres'
    ? sql<SqlBool>`${sql.ref(column)} = any(${[...values]})`
    : sql<SqlBool>`${sql.ref(column)} in (${sql.join(values)})`;
