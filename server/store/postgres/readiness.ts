// Whether the PostgreSQL database can do its work (GET /readyz): a connection answers within the
// probe's time and the schema is this build's. While the database is stopped or unreachable the
// probe answers 503, and 200 again once it is back (the pool reconnects by itself).
import type pg from 'pg';
import { GatehouseError } from '../../errors.ts';
import { newestPostgresVersion } from './migrate.ts';
import { query } from './tx.ts';

/** The longest the probe waits: an answer within a usual probe timeout (1 s). */
const PROBE_MS = 800;

export async function postgresReadiness(pool: pg.Pool): Promise<GatehouseError | null> {
  const newest = newestPostgresVersion();
  let timer: NodeJS.Timeout | undefined;
  try {
    const probe = query<{ version: number | null }>(pool, 'SELECT max(version) AS version FROM schema_migrations', []);
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the database did not answer within ${PROBE_MS} ms`)), PROBE_MS);
    });
    probe.catch(() => {}); // answered late: nobody waits for it any more
    const [r] = await Promise.race([probe, late]);
    if (r?.version !== newest) throw new Error(`schema version ${String(r?.version)}, this build's is ${newest}`);
    return null;
  } catch (e) {
    if (e instanceof GatehouseError && e.code === 'service_unavailable') return e; // query() said why
    return new GatehouseError('service_unavailable', 'Database unavailable', { cause: e, headers: { 'retry-after': '1' } });
  } finally {
    clearTimeout(timer);
  }
}
