// The gRPC side: every service of proto/ bound to the same handlers the HTTP adapter calls, plus
// the standard health service and server reflection so stock tools (grpcurl, grpc_cli) work.

import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { badRequest, type GatehouseError } from '../errors.ts';
import type { AnswerTurns } from '../lib/answer-turns.ts';
import { clientIp, grpcPeerAddress } from '../lib/client-ip.ts';
import { newId } from '../lib/ids.ts';
import type { Logger } from '../lib/log.ts';
import type { Metrics } from '../lib/metrics.ts';
import type { Authenticator } from '../rpc/access.ts';
import { buildCall, type ChainContext, type Req, type Res, refusedRequest } from '../rpc/chain.ts';
import { readDescriptorSet } from '../rpc/descriptor-set.ts';
import type { BoundMethod } from '../rpc/dispatch.ts';
import type { LoadedProtos, MethodInfo } from '../rpc/proto.ts';
import { requestError } from '../rpc/request-check.ts';
import { unsafeInteger } from '../rpc/safe-integers.ts';
import { grpcStatusOf } from '../rpc/status.ts';
import { addReflection, DescriptorIndex } from './reflection.ts';
import { encodeStatusDetails } from './status-details.ts';

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
    const infos = new Map(opts.methods.filter((m) => m.info.service === svc).map((m) => [m.info.name, m.info]));
    const definition = withSafeDeserializers(opts.protos.packageDefinition[svc] as grpc.ServiceDefinition, infos);
    const impl: grpc.UntypedServiceImplementation = {};
    for (const bound of opts.methods.filter((m) => m.info.service === svc)) {
      impl[bound.info.name] = unaryHandler(bound, opts);
    }
    server.addService(definition, impl);
  }
  const statusMap: Record<string, 'SERVING'> = { '': 'SERVING' };
  for (const svc of opts.protos.services) statusMap[svc] = 'SERVING';
  const health = new HealthImplementation(statusMap);
  health.addToServer(server);
  // Read now, so a server without its descriptors does not start; decoded when first asked.
  const descriptors = readDescriptorSet();
  addReflection(server, () => new DescriptorIndex(descriptors));
  return { server, health };
}

// grpc-js answers INTERNAL when a request does not decode; bad bytes from a client are the
// client's error, so they reach the chain as a refused request and come back INVALID_ARGUMENT.
// So does an int64 beyond 2^53−1, with the message the HTTP adapter gives for the same value, and
// whatever request-check.ts refuses (NUL, a missing required field, a broken limit).
function withSafeDeserializers(def: grpc.ServiceDefinition, infos: Map<string, MethodInfo>): grpc.ServiceDefinition {
  const out: Record<string, grpc.MethodDefinition<object, object>> = {};
  for (const [name, m] of Object.entries(def)) {
    const info = infos.get(name);
    out[name] = {
      ...m,
      requestDeserialize: (buf: Buffer) => {
        let req: Record<string, unknown>;
        try {
          req = m.requestDeserialize(buf) as Record<string, unknown>;
        } catch {
          return refusedRequest(badRequest('Malformed request message'));
        }
        const problem = info ? (unsafeInteger(info.requestType, req) ?? requestError(info, req)) : null;
        return problem ? refusedRequest(problem) : req;
      },
    };
  }
  return out as grpc.ServiceDefinition;
}

function unaryHandler(bound: BoundMethod, opts: GrpcOptions): grpc.handleUnaryCall<Req, Res> {
  const run = buildCall(
    bound,
    {
      transport: 'grpc',
      route: bound.info.path,
      status: (_res, err) => (err === null ? grpc.status.OK : grpcStatusOf(err)),
      statusName: (code) => grpc.status[code]!,
      observe: opts.metrics?.grpcMethod(bound.info.path),
    },
    opts,
  );
  const answers = opts.answerTurns;
  return (call, callback) => {
    const started = performance.now();
    const md = call.metadata;
    const inbound = metadataText(md, 'x-request-id');
    const requestId = inbound && /^[A-Za-z0-9._-]{1,64}$/.test(inbound) ? inbound : newId('req');
    const ctx = new GrpcCallContext(call, opts.trustProxy, requestId, opts.log.child({ requestId }), started);
    // The chain rejects with a GatehouseError only.
    run(call.request, ctx).then(
      (res) => {
        callback(null, res);
        answers.answeredThisTurn();
      },
      (err: GatehouseError) => {
        callback(toServiceError(err, requestId));
        answers.answeredThisTurn();
      },
    );
  };
}

/** A metadata entry as one text (several values joined as HTTP joins a repeated header), or undefined. */
function metadataText(md: grpc.Metadata, name: string): string | undefined {
  const v = md.get(name);
  return v.length ? v.map(String).join(', ') : undefined;
}

/** A call's context over gRPC. A class, as over HTTP (gateway/server.ts): its header lookup is a
 *  method on the prototype, not a closure made per call (tsx names each such closure with a
 *  defineProperty call). */
class GrpcCallContext implements ChainContext {
  readonly transport = 'grpc';
  principal: ChainContext['principal'] = null;
  private ip: string | undefined;

  constructor(
    private readonly call: grpc.ServerUnaryCall<Req, Res>,
    private readonly trustProxy: number,
    readonly requestId: string,
    readonly log: Logger,
    readonly started: number,
  ) {}

  /** Worked out on first use: most calls (consume, admin) never ask. */
  get clientIp(): string {
    return (this.ip ??= clientIp(grpcPeerAddress(this.call.getPeer()), this.trustProxy > 0 ? this.header('x-forwarded-for') : undefined, this.trustProxy));
  }

  header(name: string): string | undefined {
    return metadataText(this.call.metadata, name);
  }
}

export function toServiceError(err: GatehouseError, requestId: string): Partial<grpc.StatusObject> {
  const metadata = new grpc.Metadata();
  const extra: Record<string, string> = { requestId };
  for (const [k, v] of Object.entries(err.extra)) extra[k] = v === null ? '' : String(v);
  for (const [k, v] of Object.entries(err.headers)) metadata.set(k, v);
  metadata.set('grpc-status-details-bin', encodeStatusDetails(grpcStatusOf(err), err.message, err.code, extra));
  return { code: grpcStatusOf(err), details: err.message, metadata };
}
