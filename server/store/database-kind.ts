// Which backend `--db` names: a postgres:// (postgresql://) URL is PostgreSQL, anything else a
// SQLite file (or :memory:).

/** Whether `--db` names a PostgreSQL database rather than a SQLite file. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}
