// Column values as the two backends hand them back.

/** A boolean column: SQLite stores 0/1, PostgreSQL a boolean. */
export const flag = (v: number | boolean): boolean => v === true || v === 1;
