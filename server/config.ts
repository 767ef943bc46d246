// Every server option in one place: flag, env twin, default and a doc line (README.md). The
// identity providers' options (--apple-jwks-url, --google-issuer, …) come from their entries in
// auth/providers/registry.ts. Validated once at start; a bad value stops the boot with a message
// naming the option.
import { availableParallelism } from 'node:os';
import { PROVIDERS, type ProviderOptionValues, type ProviderRegistry, providerOptions } from './auth/providers/registry.ts';
import type { LogLevel } from './lib/log.ts';

/** The options below, and each identity provider's (appleJwksUrl, appleIssuer, appleAuthUrl,
 *  googleJwksUrl, googleIssuer: see its file in auth/providers/). */
export interface Config extends ProviderOptionValues {
  /** SQLite database file (created with its folder when missing), or a postgres:// URL. */
  db: string;
  /** gRPC listen address host:port; port 0 picks a free one. */
  grpcAddr: string;
  /** HTTP adapter listen address host:port; port 0 picks a free one. */
  httpAddr: string;
  /** Issuer base of gatehouse's own tokens; defaults to http://{http address} once bound. */
  publicUrl: string | null;
  /** Login calls (/authorize, native login, the Apple web flow, the token endpoint) per client IP
   *  per minute, one count shared by all of them; 0 turns the limit off. */
  loginRateLimit: number;
  /** Trusted proxies in front (0 = none): the client IP is the N-th X-Forwarded-For (HTTP) /
   *  x-forwarded-for (gRPC metadata) entry from the right; with 0 the header is ignored. */
  trustProxy: number;
  /** How long a write waits for SQLite's lock, or a PostgreSQL statement for a row lock, before
   *  answering 503. */
  busyTimeoutMs: number;
  /** PostgreSQL only: connections this process keeps at most. */
  dbPool: number;
  /** PostgreSQL only: longest one statement may run before it is cancelled (503). */
  dbStatementTimeoutMs: number;
  /** Timeout of one JWKS fetch. */
  jwksTimeoutMs: number;
  logLevel: LogLevel;
  /** Count requests, logins, consumes… and serve them at GET /metrics. */
  metrics: boolean;
  /** Audit records older than this many days are pruned by the periodic sweep (docs/events.md). */
  auditRetentionDays: number;
  /** Stored idempotency answers older than this many days are pruned by the periodic sweep; a
   *  replay after that is a new call (docs/events.md). */
  idempotencyRetentionDays: number;
  /** Let webhook URLs reach hosts resolving to private, loopback, link-local or unspecified
   *  addresses (docs/events.md); off by default against server-side request forgery. */
  webhooksAllowPrivate: boolean;
  /** Run the durable job queue here (webhook deliveries with the outbox relay, Apple token
   *  revocations, purges, quota recovery checks); off: an API replica, which leaves them to the
   *  replicas on the same database that run it (docs/events.md "Delivery"). */
  jobs: boolean;
  /** Processes serving the same ports (server/cluster/primary.ts); 1 = this process alone. */
  workers: number;
  /** PEM or DER files, comma-separated: the root certificates App Store notifications' chains must
   *  end at (Apple's, from apple.com/certificateauthority); null: App Store notifications refused. */
  appStoreRootCerts: string | null;
  /** A realm's signing key older than this is rotated by the periodic sweep; null = never. */
  signingKeyMaxAgeMs: number | null;
  /** The key-encryption key of the secrets at rest (crypto/secrets.ts), base64; wins over the file. */
  secretsKey: string | null;
  /** The file holding that key; null: secrets.key in the data folder (beside the SQLite file,
   *  ./data for PostgreSQL), generated on first start. */
  secretsKeyFile: string | null;
}

export interface OptionDoc {
  key: keyof Config;
  flag: string;
  env: string;
  doc: string;
  /** `hops`: a whole number given as `--flag [n]`; the flag alone is 1, true/false are 1/0. */
  /** `workers`: a whole number ≥ 1, or `auto` (one per core). */
  /** `duration`: a length like 90s, 12h, 30d (milliseconds in the config). */
  kind: 'string' | 'int' | 'bool' | 'hops' | 'url' | 'addr' | 'workers' | 'duration';
  default: string | number | boolean | null;
}

const SERVER_OPTIONS: OptionDoc[] = [
  {
    key: 'db',
    flag: '--db <path|url>',
    env: 'GATEHOUSE_DB',
    kind: 'string',
    default: './data/gatehouse.db',
    doc: 'SQLite database file, or a postgres:// (postgresql://) URL; its query parameters follow libpq and PG* variables fill what it omits',
  },
  {
    key: 'grpcAddr',
    flag: '--grpc <addr>',
    env: 'GATEHOUSE_GRPC_ADDR',
    kind: 'addr',
    default: '127.0.0.1:50051',
    doc: 'gRPC listen address (port 0 = any free port)',
  },
  {
    key: 'httpAddr',
    flag: '--http <addr>',
    env: 'GATEHOUSE_HTTP_ADDR',
    kind: 'addr',
    default: '127.0.0.1:8080',
    doc: 'HTTP listen address (port 0 = any free port)',
  },
  {
    key: 'publicUrl',
    flag: '--public-url <url>',
    env: 'GATEHOUSE_PUBLIC_URL',
    kind: 'url',
    default: null,
    doc: 'public base URL, issuer of gatehouse tokens (default http://<http address>)',
  },
  {
    key: 'loginRateLimit',
    flag: '--login-rate-limit <n>',
    env: 'GATEHOUSE_LOGIN_RATE_LIMIT',
    kind: 'int',
    default: 120,
    doc: 'calls to /authorize, native login, the Apple web flow and the token endpoint per client IP per minute, counted together (0 = off)',
  },
  {
    key: 'trustProxy',
    flag: '--trust-proxy [n]',
    env: 'GATEHOUSE_TRUST_PROXY',
    kind: 'hops',
    default: 0,
    doc: 'number of trusted proxies in front: the client IP is the n-th X-Forwarded-For entry from the right (the flag alone: 1; 0: the socket peer, the header ignored)',
  },
  {
    key: 'busyTimeoutMs',
    flag: '--busy-timeout-ms <ms>',
    env: 'GATEHOUSE_BUSY_TIMEOUT_MS',
    kind: 'int',
    default: 5000,
    doc: 'wait for the database write lock (PostgreSQL: a row lock) before answering 503',
  },
  {
    key: 'dbPool',
    flag: '--db-pool <n>',
    env: 'GATEHOUSE_DB_POOL',
    kind: 'int',
    default: 10,
    doc: 'PostgreSQL connections this process opens at most',
  },
  {
    key: 'dbStatementTimeoutMs',
    flag: '--db-statement-timeout-ms <ms>',
    env: 'GATEHOUSE_DB_STATEMENT_TIMEOUT_MS',
    kind: 'int',
    default: 10_000,
    doc: 'PostgreSQL: cancel a statement running longer, answering 503',
  },
  { key: 'jwksTimeoutMs', flag: '--jwks-timeout-ms <ms>', env: 'GATEHOUSE_JWKS_TIMEOUT_MS', kind: 'int', default: 3000, doc: 'timeout of one JWKS fetch' },
  { key: 'logLevel', flag: '--log-level <level>', env: 'GATEHOUSE_LOG_LEVEL', kind: 'string', default: 'info', doc: 'debug | info | warn | error' },
  { key: 'metrics', flag: '--metrics <on|off>', env: 'GATEHOUSE_METRICS', kind: 'bool', default: true, doc: 'Prometheus metrics at GET /metrics: on | off' },
  {
    key: 'auditRetentionDays',
    flag: '--audit-retention-days <days>',
    env: 'GATEHOUSE_AUDIT_RETENTION_DAYS',
    kind: 'int',
    default: 400,
    doc: 'days an audit record is kept before the periodic sweep prunes it',
  },
  {
    key: 'idempotencyRetentionDays',
    flag: '--idempotency-retention-days <days>',
    env: 'GATEHOUSE_IDEMPOTENCY_RETENTION_DAYS',
    kind: 'int',
    default: 30,
    doc: 'days a stored idempotency answer is kept before the periodic sweep prunes it (a replay after that is a new call)',
  },
  {
    key: 'webhooksAllowPrivate',
    flag: '--webhooks-allow-private [on|off]',
    env: 'GATEHOUSE_WEBHOOKS_ALLOW_PRIVATE',
    kind: 'bool',
    default: false,
    doc: 'let webhook URLs resolve to private, loopback, link-local or unspecified addresses (the flag alone: on)',
  },
  {
    key: 'jobs',
    flag: '--jobs [on|off]',
    env: 'GATEHOUSE_JOBS',
    kind: 'bool',
    default: true,
    doc: 'run the job queue here (webhook deliveries, Apple token revocations, purges, quota recovery checks); off: an API replica that leaves them to the replicas of the same database that run it',
  },
  {
    key: 'workers',
    flag: '--workers <n|auto>',
    env: 'GATEHOUSE_WORKERS',
    kind: 'workers',
    default: 1,
    doc: 'processes serving the same ports (auto = one per core; 1 = this process alone)',
  },
  {
    key: 'appStoreRootCerts',
    flag: '--app-store-root-certs <file[,file]>',
    env: 'GATEHOUSE_APP_STORE_ROOT_CERTS',
    kind: 'string',
    default: null,
    doc: "root certificates (PEM or DER) App Store notifications must chain to: Apple's Root CA - G3 (apple.com/certificateauthority)",
  },
  {
    key: 'signingKeyMaxAgeMs',
    flag: '--signing-key-max-age <duration>',
    env: 'GATEHOUSE_SIGNING_KEY_MAX_AGE',
    kind: 'duration',
    default: null,
    doc: "rotate a realm's access-token signing key once it is this old, e.g. 30d (default: only `keys rotate-signing`)",
  },
  {
    key: 'secretsKey',
    flag: '--secrets-key <base64>',
    env: 'GATEHOUSE_SECRETS_KEY',
    kind: 'string',
    default: null,
    doc: 'the 32-byte key encrypting secrets at rest, base64 (prefer the env var: a flag shows in the process list)',
  },
  {
    key: 'secretsKeyFile',
    flag: '--secrets-key-file <path>',
    env: 'GATEHOUSE_SECRETS_KEY_FILE',
    kind: 'string',
    default: null,
    doc: 'file holding the key encrypting secrets at rest (default secrets.key in the data folder, made on first start; keep it apart from backups)',
  },
];

/** Every option: the server's, with the identity providers' after --public-url. */
export function serverOptions(providers: ProviderRegistry = PROVIDERS): OptionDoc[] {
  const at = SERVER_OPTIONS.findIndex((o) => o.key === 'publicUrl') + 1;
  const fromProviders = providers.specs.flatMap((spec) =>
    providerOptions(spec).map((o): OptionDoc => ({ key: o.key as keyof Config, flag: o.flag, env: o.env, kind: o.kind, default: o.default, doc: o.doc })),
  );
  const all = [...SERVER_OPTIONS.slice(0, at), ...fromProviders, ...SERVER_OPTIONS.slice(at)];
  for (const name of ['key', 'env'] as const) {
    const seen = new Set<string>();
    for (const o of all) {
      if (seen.has(o[name])) throw new Error(`server option ${o[name]} is declared twice`);
      seen.add(o[name]);
    }
  }
  return all;
}

export const OPTIONS: OptionDoc[] = serverOptions();

export class ConfigError extends Error {}

/** Builds the config from flag values (already parsed, possibly undefined) and the environment. */
export function loadConfig(
  flags: Partial<Record<keyof Config, unknown>>,
  env: NodeJS.ProcessEnv = process.env,
  options: readonly OptionDoc[] = OPTIONS,
): Config {
  const out: Record<string, unknown> = {};
  for (const o of options) {
    let raw: unknown = flags[o.key];
    if (raw === undefined && env[o.env] !== undefined && env[o.env] !== '') raw = env[o.env];
    if (raw === undefined) {
      out[o.key] = o.default;
      continue;
    }
    out[o.key] = parseValue(o, raw);
  }
  const cfg = out as unknown as Config;
  if (!['debug', 'info', 'warn', 'error'].includes(cfg.logLevel))
    throw new ConfigError(`--log-level: expected debug, info, warn or error, got ${cfg.logLevel}`);
  if (cfg.dbPool < 1) throw new ConfigError(`--db-pool (GATEHOUSE_DB_POOL): expected at least 1 connection, got ${cfg.dbPool}`);
  return cfg;
}

function parseValue(o: OptionDoc, raw: unknown): unknown {
  const name = `${o.flag.split(' ')[0]} (${o.env})`;
  switch (o.kind) {
    case 'bool':
      if (typeof raw === 'boolean') return raw;
      if (/^(1|true|yes|on)$/i.test(String(raw))) return true;
      if (/^(0|false|no|off)$/i.test(String(raw))) return false;
      throw new ConfigError(`${name}: expected true or false, got ${String(raw)}`);
    case 'hops':
      if (typeof raw === 'boolean') return raw ? 1 : 0;
      if (/^\d{1,2}$/.test(String(raw))) return Number(raw);
      if (/^(true|yes|on)$/i.test(String(raw))) return 1;
      if (/^(false|no|off)$/i.test(String(raw))) return 0;
      throw new ConfigError(`${name}: expected a number of proxies (0–99), true or false, got ${String(raw)}`);
    case 'int': {
      const s = String(raw);
      if (!/^\d+$/.test(s)) throw new ConfigError(`${name}: expected a whole number ≥ 0, got ${s}`);
      return Number(s);
    }
    case 'workers': {
      const s = String(raw);
      if (s === 'auto') return availableParallelism();
      if (!/^\d{1,3}$/.test(s) || Number(s) < 1) throw new ConfigError(`${name}: expected a number of processes (1–999) or auto, got ${s}`);
      return Number(s);
    }
    case 'duration': {
      const ms = parseDurationMs(String(raw));
      if (ms === null) throw new ConfigError(`${name}: expected a length like 90s, 12h or 30d, got ${String(raw)}`);
      return ms;
    }
    case 'url': {
      const s = String(raw);
      try {
        const u = new URL(s);
        if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
      } catch {
        throw new ConfigError(`${name}: expected an http(s) URL, got ${s}`);
      }
      return s.replace(/\/+$/, '');
    }
    case 'addr': {
      const s = String(raw);
      parseAddr(s, name);
      return s;
    }
    default:
      return String(raw);
  }
}

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `90s`, `12h`, `30d`… → milliseconds (more than 0), else null. */
export function parseDurationMs(text: string): number | null {
  const m = /^(\d+)(ms|s|m|h|d|w)$/.exec(text.trim());
  if (!m) return null;
  const ms = Number(m[1]) * DURATION_UNITS_MS[m[2]!]!;
  return Number.isSafeInteger(ms) && ms > 0 ? ms : null;
}

/** host:port (IPv6 as [::1]:port) → parts. */
export function parseAddr(s: string, name = 'address'): { host: string; port: number } {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:\s]+):(\d{1,5})$/.exec(s);
  if (!m || Number(m[2]) > 65535) throw new ConfigError(`${name}: expected host:port, got ${s}`);
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port: Number(m[2]) };
}
