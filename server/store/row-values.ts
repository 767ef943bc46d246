// Column values as the two backends hand them back.

/** A boolean column: SQLite stores 0/1, PostgreSQL a boolean. */
export const flag = (v: number | boolean): boolean => v === true || v === 1;

/** SQL written once for both backends ($1, $2… in the order they appear) as SQLite's `?`. */
export const positional = (sql: string): string => sql.replace(/\$\d+/g, '?');
