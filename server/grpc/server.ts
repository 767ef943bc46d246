// The gRPC side: every service of proto/ bound to the same handlers the HTTP adapter calls, plus
// the standard health service and server reflection so stock tools (grpcurl, grpc_cli) work.
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { ReflectionService } from '@grpc/reflection';
import { GatehouseError, OutageCause, badRequest } from '../errors.ts';
import { newId } from '../lib/ids.ts';
import type { AnswerTurns } from '../lib/answer-turns.ts';
import { PROFILING, spanEnd, spanStart } from '../lib/profile.ts';
import { clientIp, grpcPeerAddress } from '../lib/client-ip.ts';
import { errorFields, type Logger } from '../lib/log.ts';
import type { Metrics } from '../lib/metrics.ts';
import type { Authenticator } from '../rpc/access.ts';
import type { CallContext } from '../rpc/context.ts';
import { invoke, type BoundMethod } from '../rpc/dispatch.ts';
import { LOADER_OPTIONS, apiProtoFiles, type LoadedProtos } from '../rpc/proto.ts';
import * as protoLoader from '@grpc/proto-loader';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
import { encodeStatusDetails } from './status-details.ts';
import { unsafeInteger } from '../rpc/safe-integers.ts';
import type protobuf from 'protobufjs';

export interface GrpcOptions {
  protos: LoadedProtos;
  methods: BoundMethod[];
  auth: Authenticator;
  log: Logger;
  /** Trusted proxies in front (0: the peer is the client; client-ip.ts). */
  trustProxy: number;
  metrics?: Metrics | null;
  /** Marked in every turn in which this server answered (the database's write batches wait them out). */
  answerTurns: AnswerTurns;
}

export function createGrpcServer(opts: GrpcOptions): { server: grpc.Server; health: HealthImplementation } {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': 1024 * 1024,
    'grpc.keepalive_permit_without_calls': 1,
    // channelz (per-call counters for a debugging service gatehouse does not expose) is bookkeeping
    // on every call.
    'grpc.enable_channelz': 0,
  });
  for (const svc of opts.protos.services) {
    const types = new Map(opts.methods.filter((m) => m.info.service === svc).map((m) => [m.info.name, m.info.requestType]));
    const definition = withSafeDeserializers(opts.protos.packageDefinition[svc] as grpc.ServiceDefinition, types);
    const impl: grpc.UntypedServiceImplementation = {};
    const auth = PROFILING ? profiledAuth(opts.auth) : opts.auth;
    for (const bound of opts.methods.filter((m) => m.info.service === svc)) {
      impl[bound.info.name] = unaryHandler(bound, { ...opts, auth });
    }
    server.addService(definition, impl);
  }
  const statusMap: Record<string, 'SERVING'> = { '': 'SERVING' };
  for (const svc of opts.protos.services) statusMap[svc] = 'SERVING';
  const health = new HealthImplementation(statusMap);
  health.addToServer(server);
  new ReflectionService(reflectionDefinition()).addToServer(server);
  return { server, health };
}

const REFUSED = Symbol('refused request');

// grpc-js answers INTERNAL when a request does not decode; bad bytes from a client are the
// client's error, so they reach the handler wrapper as a marker and come back INVALID_ARGUMENT.
// So does an int64 beyond 2^53−1, with the message the HTTP adapter gives for the same value.
function withSafeDeserializers(def: grpc.ServiceDefinition, types: Map<string, protobuf.Type>): grpc.ServiceDefinition {
  const out: Record<string, grpc.MethodDefinition<object, object>> = {};
  for (const [name, m] of Object.entries(def)) {
    const type = types.get(name);
    out[name] = {
      ...m,
      requestDeserialize: (buf: Buffer) => {
        let req: Record<string, unknown>;
        try {
          req = m.requestDeserialize(buf) as Record<string, unknown>;
        } catch {
          return { [REFUSED]: badRequest('Malformed request message') };
        }
        const unsafe = type ? unsafeInteger(type, req) : null;
        return unsafe ? { [REFUSED]: unsafe } : req;
      },
    };
  }
  return out as grpc.ServiceDefinition;
}

// Reflection describes the protos as written (snake_case field names, keepCase) and includes the
// health service, so grpcurl sees exactly what a .proto reader would.
function reflectionDefinition(): protoLoader.PackageDefinition {
  const healthProto = join(dirname(require.resolve('grpc-health-check/package.json')), 'proto', 'health', 'v1', 'health.proto');
  return {
    ...protoLoader.loadSync(apiProtoFiles(), { ...LOADER_OPTIONS, keepCase: true }),
    ...protoLoader.loadSync(healthProto, { keepCase: true }),
  };
}

function unaryHandler(bound: BoundMethod, opts: GrpcOptions): grpc.handleUnaryCall<Record<string, unknown>, Record<string, unknown>> {
  const observe = opts.metrics?.grpcMethod(bound.info.path);
  return (call, callback) => {
    const started = performance.now();
    const md = call.metadata;
    const get = (name: string): string | undefined => {
      const v = md.get(name);
      return v.length ? v.map(String).join(', ') : undefined;
    };
    const inbound = get('x-request-id');
    const requestId = inbound && /^[A-Za-z0-9._-]{1,64}$/.test(inbound) ? inbound : newId('req');
    const log = opts.log.child({ requestId });
    let ip: string | undefined;
    const ctx: CallContext = {
      requestId,
      transport: 'grpc',
      // Worked out on first use: most calls (consume, admin) never ask.
      get clientIp() {
        return (ip ??= clientIp(grpcPeerAddress(call.getPeer()), opts.trustProxy > 0 ? get('x-forwarded-for') : undefined, opts.trustProxy));
      },
      header: get,
      principal: null,
      log,
    };
    const refused = (call.request as Record<symbol, GatehouseError | undefined>)[REFUSED];
    const run = refused ? Promise.reject(refused) : invoke(bound, call.request, ctx, opts.auth);
    run.then(
      (res) => {
        const ms = performance.now() - started;
        log.info('grpc', { route: bound.info.path, status: 'OK', ms: round1(ms) });
        observe?.(grpc.status.OK, ms);
        const ts = spanStart();
        callback(null, res);
        opts.answerTurns.answeredThisTurn();
        spanEnd('grpc.respond', ts);
        spanEnd('grpc.handler', started);
      },
      (e) => {
        const err = GatehouseError.from(e);
        // An upstream outage is logged by its owner when it starts and ends, not once per call.
        if (err.httpStatus >= 500 && !(err.cause instanceof OutageCause)) log.error('request failed', { route: bound.info.path, ...errorFields(err) });
        const ms = performance.now() - started;
        log.info('grpc', { route: bound.info.path, status: grpc.status[err.grpcStatus], ms: round1(ms) });
        observe?.(err.grpcStatus, ms);
        opts.metrics?.failure(err);
        callback(toServiceError(err, requestId));
        opts.answerTurns.answeredThisTurn();
      },
    );
  };
}

export function toServiceError(err: GatehouseError, requestId: string): Partial<grpc.StatusObject> {
  const metadata = new grpc.Metadata();
  const extra: Record<string, string> = { requestId };
  for (const [k, v] of Object.entries(err.extra)) extra[k] = v === null ? '' : String(v);
  for (const [k, v] of Object.entries(err.headers)) metadata.set(k, v);
  metadata.set('grpc-status-details-bin', encodeStatusDetails(err.grpcStatus, err.message, err.code, extra));
  return { code: err.grpcStatus, details: err.message, metadata };
}

/** The API-key check as its own span (GATEHOUSE_PROFILE=1 only). */
function profiledAuth(auth: Authenticator): Authenticator {
  return {
    async apiKey(secret) {
      const t = spanStart();
      try {
        return await auth.apiKey(secret);
      } finally {
        spanEnd('access.api_key', t);
      }
    },
    userToken: (realmId, token, ctx) => auth.userToken(realmId, token, ctx),
  };
}

function round1(ms: number): number {
  return Math.round(ms * 10) / 10;
}
