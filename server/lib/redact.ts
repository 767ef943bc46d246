// A database as it may be printed (logs, errors, command output): a postgres:// URL's password is
// a secret wherever it is written, in the user information (RFC 3986 §3.2.1) or as libpq's
// `password` / `sslpassword` query parameters. PGPASSWORD is never read here, so never printed.

const POSTGRES_URL = /^postgres(ql)?:\/\//i;
const SECRET_PARAMETERS = new Set(['password', 'sslpassword']);
const HIDDEN = '***';

/** `db` without its secrets: a postgres:// URL with every password replaced by ***, a SQLite path
 *  as given. A URL that does not parse is not shown at all (its password could be anywhere). */
export function shownDatabase(db: string): string {
  if (!POSTGRES_URL.test(db)) return db;
  let url: URL;
  try {
    url = new URL(db);
  } catch {
    return 'the PostgreSQL database (its URL does not parse)';
  }
  if (url.password) url.password = HIDDEN;
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_PARAMETERS.has(name.toLowerCase())) url.searchParams.set(name, HIDDEN);
  }
  return url.toString();
}
