// Rows as objects of one fixed shape per statement. better-sqlite3 builds each row object through
// V8's API one column at a time (the column's name interned, then a hidden-class transition for
// each property); in raw mode it hands back an array, and a function written for the statement's
// columns turns that into an object literal: the same keys and values, built by V8's fast path,
// and every row of the statement sharing one hidden class.
import type Database from 'better-sqlite3';

/** What the stores ask of a statement that returns rows. */
export interface RowStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/** `stmt` (which this puts in raw mode) with its rows as objects keyed by column name, as
 *  better-sqlite3's own: a name that appears twice keeps its last column's value. */
export function objectRows(stmt: Database.Statement): RowStatement {
  const names = stmt.columns().map((c) => c.name);
  // The literal is generated from the statement's own column names (JSON-quoted), never from data.
  const build = new Function('r', `return { ${names.map((n, i) => `${JSON.stringify(n)}: r[${i}]`).join(', ')} };`) as (row: unknown[]) => unknown;
  stmt.raw(true);
  return {
    get(...params) {
      const row = stmt.get(...params) as unknown[] | undefined;
      return row === undefined ? undefined : build(row);
    },
    all(...params) {
      const rows = stmt.all(...params) as unknown[];
      for (let i = 0; i < rows.length; i++) rows[i] = build(rows[i] as unknown[]);
      return rows;
    },
  };
}
