// Starts gatehouse: gRPC and the HTTP adapter over one app, and stops it gracefully.
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { format } from 'node:util';
import * as grpc from '@grpc/grpc-js';
import { type App, type AppOptions, createApp } from './app.ts';
import { type Sweeper, startSweeper } from './auth/sweep.ts';
import { openBackend, type StorageBackend } from './backend.ts';
import { type Config, parseAddr } from './config.ts';
import { GatehouseError } from './errors.ts';
import { createGateway } from './gateway/server.ts';
import { createGrpcServer } from './grpc/server.ts';
import { useStreamTables } from './grpc/stream-table.ts';
import { createLogger } from './lib/log.ts';
import { buildOpenApi } from './openapi/document.ts';
import { bindMethods } from './rpc/dispatch.ts';
import { loadProtos } from './rpc/proto.ts';
import { loadSecrets } from './secrets-key.ts';

export interface RunningServer {
  app: App;
  grpcAddr: string;
  httpAddr: string;
  httpUrl: string;
  /** The periodic sweep of expired login state. */
  sweeper: Sweeper;
  /** Stops accepting, lets in-flight calls finish (up to `graceMs`), closes the database. */
  stop(graceMs?: number): Promise<void>;
}

/** Tuning that tests shorten; operators keep the defaults (no flags). */
export interface ServerOptions extends AppOptions {
  /** node:http's headers timeout (default 10 s). */
  headersTimeoutMs?: number;
  /** How often expired login state is swept (default 30 s). */
  sweepIntervalMs?: number;
  /** How often the job queue looks for due jobs (default jobs/queue.ts JOB_POLL_INTERVAL_MS). */
  jobIntervalMs?: number;
  /** False when another process checkpoints the database file (a cluster worker's primary). */
  checkpointer?: boolean;
  /** An open storage backend (default: the one config.db names, opened by backend.ts); the server
   *  closes it when it stops. */
  backend?: StorageBackend;
}

export async function startServer(config: Config, opts: ServerOptions = {}): Promise<RunningServer> {
  const log = opts.log ?? createLogger({ level: config.logLevel });
  const secrets = opts.secrets ?? loadSecrets(config, log);
  // Opened (and migrated) before the app, whichever database it is.
  const backend = opts.backend ?? (await openBackend(config, log, secrets));
  let app: App;
  try {
    app = createApp(config, backend, { ...opts, log, secrets });
  } catch (e) {
    await backend.close();
    throw e;
  }
  // Before any call is served: what an older version stored in clear is sealed, and a database
  // sealed under another key stops the start here rather than failing calls later.
  await app.sealSecrets().catch(async (e: unknown) => {
    await app.close();
    throw e;
  });
  // grpc-js's own messages (a failed bind, a bad metadata entry) as our JSON lines, not console "E …" ones.
  const grpcLog =
    (level: 'error' | 'info' | 'debug') =>
    (...args: unknown[]) =>
      app.log[level](format(...args), { source: 'grpc-js' });
  grpc.setLogger({ error: grpcLog('error'), info: grpcLog('info'), debug: grpcLog('debug') });
  app.signatures.warm(); // logins' signature work gets its thread before the first login
  // A SQLite file's WAL checkpoints run on the signature thread (a cluster worker leaves them to its
  // primary, server/cluster/primary.ts). PostgreSQL needs none.
  const maintenance = backend.startMaintenance?.(app.log, opts.checkpointer !== false, app.signatures) ?? null;
  const sweeper = startSweeper({
    store: app.authStore,
    clock: app.clock,
    log: app.log,
    intervalMs: opts.sweepIntervalMs,
    prunes: app.prunes,
    signingKeys: config.signingKeyMaxAgeMs === null ? undefined : { keys: app.signingKeys, maxAgeMs: config.signingKeyMaxAgeMs },
  });
  // Every replica (and every --workers worker) polls the queue unless it is an API replica
  // (--jobs off): a claim is exclusive in the database, and an idle poll is a plain read, so one
  // process's death leaves its jobs to the rest. An API replica still runs the jobs a call it
  // serves holds (delete-account's purge and revocations): they are that call's own work.
  if (config.jobs) app.jobs.start(opts.jobIntervalMs);
  const close = async () => {
    await app.jobs.stop();
    await sweeper.stop();
    await maintenance?.stop();
    await app.signatures.stopWorker(); // each server has its own thread: a stopped one holds none
    await app.close();
  };
  try {
    const protos = loadProtos();
    const methods = bindMethods(protos, app.services);
    const { server: grpcServer, health } = createGrpcServer({
      protos,
      methods,
      auth: app.auth,
      log: app.log,
      trustProxy: config.trustProxy,
      metrics: app.metrics,
      answerTurns: app.answerTurns,
    });
    let stopping: Promise<void> | null = null;
    const operational = {
      metrics: app.metrics?.registry ?? null,
      // Not ready once stop has begun: a load balancer stops sending work while calls drain.
      ready: () => (stopping ? new GatehouseError('service_unavailable', 'Server is shutting down') : app.databaseReady()),
    };
    const httpServer = createGateway({
      methods,
      auth: app.auth,
      log: app.log,
      trustProxy: config.trustProxy,
      metrics: app.metrics,
      operational,
      headersTimeoutMs: opts.headersTimeoutMs,
      // The OpenAPI document of every route, from the same protos and annotations.
      openapi: () => JSON.stringify(buildOpenApi(protos.methods)),
    });

    const g = parseAddr(config.grpcAddr);
    const grpcPort = await new Promise<number>((resolve, reject) => {
      grpcServer.bindAsync(`${g.host.includes(':') ? `[${g.host}]` : g.host}:${g.port}`, grpc.ServerCredentials.createInsecure(), (err, port) =>
        err ? reject(new Error(`cannot listen for gRPC on ${config.grpcAddr}: ${err.message}`)) : resolve(port),
      );
    });
    useStreamTables(grpcServer, app.log);
    const h = parseAddr(config.httpAddr);
    const httpPort = await listen(httpServer, h.host, h.port).catch((err: Error) => {
      grpcServer.forceShutdown();
      throw new Error(`cannot listen for HTTP on ${config.httpAddr}: ${err.message}`);
    });
    const fmt = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);
    const httpAddr = fmt(h.host, httpPort);
    const httpUrl = `http://${httpAddr}`;
    app.setPublicUrl(httpUrl);

    const stop = (graceMs = 10_000) =>
      (stopping ??= (async () => {
        health.setStatus('', 'NOT_SERVING');
        const httpDone = new Promise<void>((resolve) => httpServer.close(() => resolve()));
        httpServer.closeIdleConnections();
        const grpcDone = new Promise<void>((resolve) => grpcServer.tryShutdown(() => resolve()));
        const timer = setTimeout(() => {
          httpServer.closeAllConnections();
          grpcServer.forceShutdown();
        }, graceMs);
        await Promise.all([httpDone, grpcDone]);
        clearTimeout(timer);
        await close();
      })());

    return { app, grpcAddr: fmt(g.host, grpcPort), httpAddr, httpUrl, sweeper, stop };
  } catch (e) {
    await close();
    throw e;
  }
}

function listen(server: HttpServer, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
