// Composition: config → database → stores → services. Used by `serve`, by tests that need a manual
// clock, and by offline CLI commands. The only place that knows every concern. The database is
// SQLite (a file) or PostgreSQL (a postgres:// URL), opened by backend.ts, the storage's root.

import { X509Certificate } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { authenticateApiKey } from './admin/api-keys.ts';
import { createAdminService } from './admin/service.ts';
import { APPLE_TOKEN_TIMEOUT_MS, appleRevocationHandlers, appleRevocationPlanner } from './auth/apple-revocation.ts';
import { PROVIDERS, type ProviderRegistry } from './auth/providers/registry.ts';
import { createAuth } from './auth/service.ts';
import { createSigningKeyAdmin } from './auth/signing-key-admin.ts';
import type { SigningKeys } from './auth/signing-keys.ts';
import type { AuthStore } from './auth/store.ts';
import type { StorageBackend } from './backend.ts';
import { rootsFrom } from './billing/app-store-verify.ts';
import { type Config, ConfigError } from './config.ts';
import { CryptoOffload } from './crypto/offload.ts';
import type { SecretBox } from './crypto/secrets.ts';
import type { GatehouseError } from './errors.ts';
import { type Prune, recordPrunes } from './events/retention.ts';
import { createJobQueue, type JobQueue } from './jobs/queue.ts';
import { jobPrunes } from './jobs/retention.ts';
import { AnswerTurns } from './lib/answer-turns.ts';
import { oneCallAtATime } from './lib/calls-in-flight.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { createLogger, type Logger } from './lib/log.ts';
import { createMetrics, type Metrics } from './lib/metrics.ts';
import { createPagesService } from './pages/service.ts';
import { quotaRecoveryHandlers } from './points/quota-recovery.ts';
import { idempotencyPrunes } from './points/retention.ts';
import { createPointsEngine } from './points-engine.ts';
import type { Authenticator } from './rpc/access.ts';
import type { ServiceTable } from './rpc/types.ts';
import { loadSecrets, sealSecretsAtRest } from './secrets-key.ts';
import { createAccountDeletion, createDeleteMe } from './users/delete-account.ts';
import type { DeleteAccount } from './users/deletion.ts';
import { userPurgeHandlers } from './users/purge-job.ts';
import { createUserAdminHandlers } from './users/service.ts';
import type { UserCreatedHook } from './users/store.ts';
import { createWebhookDelivery, webhookMetrics, withOutboxRelay } from './webhooks/delivery.ts';
import { DELIVERY_TIMEOUT_MS } from './webhooks/model.ts';
import { createWebhookService } from './webhooks/service.ts';
import type { HostResolver } from './webhooks/url-rules.ts';

export interface AppOptions {
  clock?: Clock;
  log?: Logger;
  /** The native identity providers (default: every one in auth/providers/registry.ts). */
  providers?: ProviderRegistry;
  /** How webhook hosts are resolved (default: the system's resolver; tests give fixed answers). */
  resolveHost?: HostResolver;
  /** One webhook attempt's timeout (default model.ts DELIVERY_TIMEOUT_MS; tests shorten it). */
  webhookTimeoutMs?: number;
  /** The key of the secrets at rest (default: loaded as secrets-key.ts says). */
  secrets?: SecretBox;
}

export interface App {
  config: Config;
  /** The database the stores run on (backend.ts). */
  backend: StorageBackend;
  clock: Clock;
  log: Logger;
  /** This server's own registry and counters; null with --metrics off. */
  metrics: Metrics | null;
  /** The turns in which the gRPC server answered; the database's write batches wait them out. */
  answerTurns: AnswerTurns;
  /** The signature service: logins' signature work on a worker thread (crypto/offload.ts). */
  signatures: CryptoOffload;
  services: ServiceTable;
  auth: Authenticator;
  /** The durable job queue (Apple revocations, webhook deliveries after the outbox relay); main.ts
   *  polls it. */
  jobs: JobQueue;
  /** The account deletion use case (API, CLI, Apple's account-delete notification). */
  deleteAccount: DeleteAccount;
  /** What the periodic sweep prunes besides login state: events and audit records (docs/events.md). */
  prunes: Record<string, Prune>;
  /** The auth concern's store (the periodic sweep of expired login state runs through it). */
  authStore: AuthStore;
  /** The realms' signing keys (the sweep rotates those older than --signing-key-max-age). */
  signingKeys: SigningKeys;
  /** Seals what an older version stored in clear (at start; secrets-key.ts). */
  sealSecrets(): Promise<number>;
  /** null when the database can serve (GET /readyz), else the 503 to answer. */
  databaseReady(): Promise<GatehouseError | null>;
  /** Set once the HTTP listener is bound, when --public-url is not given. */
  setPublicUrl(url: string): void;
  close(): Promise<void>;
}

/** `backend`: the open storage (backend.ts openBackend); the app closes it. */
export function createApp(config: Config, backend: StorageBackend, opts: AppOptions = {}): App {
  const clock = opts.clock ?? systemClock;
  const log = opts.log ?? createLogger({ level: config.logLevel });
  const secrets = opts.secrets ?? loadSecrets(config, log);
  const metrics = config.metrics ? createMetrics(backend.errorKind) : null;
  const answerTurns = new AnswerTurns();
  // The database's write batches (SQLite's group commit) wait out the turns the gRPC server answers in.
  backend.paceWrites?.(answerTurns, metrics ? (units) => metrics.writeBatch(units) : null);
  const stores = backend.stores;
  const { admin: adminStore, users: userStore, auth: authStore } = stores;
  let publicUrl = config.publicUrl;
  const providers = opts.providers ?? PROVIDERS;

  // Every path that creates an account runs these (registration grants of the points concern).
  const userCreatedHooks: UserCreatedHook[] = [];
  const onUserCreated: UserCreatedHook = async (user) => {
    for (const hook of userCreatedHooks) await hook(user);
  };

  // --- points & billing concern ---
  const pointsEngine = createPointsEngine(stores, clock, metrics, appStoreRoots(config.appStoreRootCerts));
  userCreatedHooks.push(pointsEngine.onUserCreated);

  // --- account lifecycle: deletion, and the durable queue its Apple revocations run from ---
  // --- events: webhook deliveries are jobs of the same queue, fed by the outbox relay ---
  const resolveHost: HostResolver = opts.resolveHost ?? ((host) => lookup(host, { all: true }));
  const webhookDelivery = createWebhookDelivery({
    store: stores.webhooks,
    clock,
    log,
    resolve: resolveHost,
    allowPrivate: config.webhooksAllowPrivate,
    timeoutMs: opts.webhookTimeoutMs ?? DELIVERY_TIMEOUT_MS,
    observe: metrics ? webhookMetrics(metrics.registry, stores.webhooks, clock) : undefined,
  });
  const queue = createJobQueue({
    store: stores.jobs,
    clock,
    log,
    handlers: new Map([
      ...appleRevocationHandlers({ admin: adminStore, jobs: stores.jobs, clock, appleAuthUrl: config.appleAuthUrl, timeoutMs: APPLE_TOKEN_TIMEOUT_MS }),
      ...webhookDelivery.handlers,
      ...quotaRecoveryHandlers(stores.points, clock),
      ...userPurgeHandlers(userStore, clock),
    ]),
  });
  const jobs = withOutboxRelay(queue, webhookDelivery.relay, log);
  const deleteAccount = createAccountDeletion({
    users: userStore,
    clock,
    revocations: appleRevocationPlanner(adminStore),
    holdJob: jobs.hold,
    runHeldJob: jobs.runHeld,
  });

  // --- auth concern ---
  // Signatures go to the signature thread while calls compete for the event loop (offload.ts).
  const signatures = new CryptoOffload({ busy: () => !oneCallAtATime() });
  const authConcern = createAuth({
    config,
    admin: adminStore,
    users: userStore,
    store: authStore,
    clock,
    log,
    onUserCreated,
    // Read on use: the listener's address is known only after bind (setPublicUrl).
    publicUrl: () => publicUrl ?? `http://${config.httpAddr}`,
    metrics,
    providers,
    signatures,
    deleteAccount,
  });

  const services: ServiceTable = {
    'gatehouse.v1.AdminService': {
      ...createAdminService({ store: adminStore, clock, providers: providers.kinds }),
      ...createUserAdminHandlers({ users: userStore, admin: adminStore, clock, onUserCreated, sessions: authStore, deleteAccount }),
      ...createWebhookService({
        webhooks: stores.webhooks,
        records: stores.records,
        admin: adminStore,
        clock,
        resolve: resolveHost,
        allowPrivate: config.webhooksAllowPrivate,
      }),
      ...createSigningKeyAdmin({ admin: adminStore, keys: authConcern.keys }),
    },
    'gatehouse.v1.PagesService': createPagesService(adminStore),
    'gatehouse.v1.AuthService': { ...authConcern.service, deleteMe: createDeleteMe(deleteAccount) },
    'gatehouse.v1.PointsService': pointsEngine.pointsService,
    'gatehouse.v1.BillingService': pointsEngine.billingService,
  };

  const auth: Authenticator = {
    apiKey: (secret) => authenticateApiKey(adminStore, secret),
    userToken: authConcern.userToken,
  };

  return {
    config,
    backend,
    clock,
    log,
    metrics,
    answerTurns,
    signatures,
    services,
    auth,
    jobs,
    deleteAccount,
    prunes: {
      ...recordPrunes(stores.webhooks, config.auditRetentionDays),
      ...idempotencyPrunes(stores.points, config.idempotencyRetentionDays),
      ...jobPrunes(stores.jobs),
    },
    authStore,
    signingKeys: authConcern.keys,
    sealSecrets: () => sealSecretsAtRest(stores.secrets, secrets, log),
    databaseReady: () => backend.ready(),
    setPublicUrl(url) {
      publicUrl ??= url;
    },
    close: () => backend.close(),
  };
}

/** The App Store's root certificates from --app-store-root-certs (files read once, at start). */
function appStoreRoots(files: string | null): Buffer[] | null {
  if (files === null || files === '') return null;
  const contents = files.split(',').map((f) => {
    try {
      return readFileSync(f.trim());
    } catch (e) {
      throw new ConfigError(`--app-store-root-certs: cannot read ${f.trim()}: ${(e as Error).message}`);
    }
  });
  const roots = rootsFrom(contents);
  for (const r of roots) {
    try {
      new X509Certificate(r);
    } catch {
      throw new ConfigError('--app-store-root-certs: not a certificate (PEM or DER)');
    }
  }
  return roots;
}
