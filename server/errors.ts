// One error type for the whole service. Codes are the contract's snake_case strings (docs/errors.md);
// messages are for people; `cause` stays in logs and never reaches a client.
import { status as GrpcStatus } from '@grpc/grpc-js';

export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'mapping_in_use'
  | 'insufficient_points'
  | 'idempotency_conflict'
  | 'hold_expired'
  | 'hold_closed'
  | 'too_many_holds'
  | 'refund_exceeds'
  | 'payload_too_large'
  | 'rate_limited'
  | 'service_unavailable'
  | 'internal_error'
  | 'method_not_allowed'
  // RFC 6749 §5.2 codes, used by the token endpoint in the `error` field.
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  // RFC 6749 §4.1.2.1, at /authorize.
  | 'unsupported_response_type';

export type Extra = Record<string, string | number | boolean | null>;

/** Our error for a foreign one its owner can explain (a database's busy error), or null. */
export type ErrorTranslator = (err: unknown) => GatehouseError | null;

interface CodeInfo {
  http: number;
  grpc: GrpcStatus;
}

// The one gRPC↔HTTP table (docs/errors.md).
const TABLE: Record<ErrorCode, CodeInfo> = {
  bad_request: { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT },
  unauthorized: { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  forbidden: { http: 403, grpc: GrpcStatus.PERMISSION_DENIED },
  not_found: { http: 404, grpc: GrpcStatus.NOT_FOUND },
  conflict: { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION },
  mapping_in_use: { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION },
  insufficient_points: { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION },
  idempotency_conflict: { http: 409, grpc: GrpcStatus.ABORTED },
  hold_expired: { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION },
  hold_closed: { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION },
  too_many_holds: { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION },
  refund_exceeds: { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION },
  payload_too_large: { http: 413, grpc: GrpcStatus.INVALID_ARGUMENT },
  rate_limited: { http: 429, grpc: GrpcStatus.RESOURCE_EXHAUSTED },
  service_unavailable: { http: 503, grpc: GrpcStatus.UNAVAILABLE },
  internal_error: { http: 500, grpc: GrpcStatus.INTERNAL },
  method_not_allowed: { http: 405, grpc: GrpcStatus.UNIMPLEMENTED },
  invalid_request: { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT },
  invalid_client: { http: 401, grpc: GrpcStatus.UNAUTHENTICATED },
  invalid_grant: { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT },
  unauthorized_client: { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT },
  unsupported_grant_type: { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT },
  invalid_scope: { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT },
  unsupported_response_type: { http: 400, grpc: GrpcStatus.INVALID_ARGUMENT },
};

/** Whether `s` is one of the codes above (the CLI reads them back from a gRPC ErrorInfo). */
export function isErrorCode(s: string): s is ErrorCode {
  return Object.hasOwn(TABLE, s);
}

export class GatehouseError extends Error {
  readonly code: ErrorCode;
  readonly extra: Extra;
  readonly headers: Record<string, string>;
  /** An HTTP status other than the code's own, where the API asks for it (docs/login.md: a refresh
   *  from outside the session's IP binding is 401 with the RFC 6749 code `invalid_grant`). Only 400
   *  and 401 are allowed. */
  readonly status: 400 | 401 | undefined;

  constructor(code: ErrorCode, message: string, opts: { extra?: Extra; cause?: unknown; headers?: Record<string, string>; status?: 400 | 401 } = {}) {
    super(message, { cause: opts.cause });
    this.name = 'GatehouseError';
    this.code = code;
    this.extra = opts.extra ?? {};
    this.headers = opts.headers ?? {};
    this.status = opts.status;
  }

  get httpStatus(): number {
    return this.status ?? TABLE[this.code].http;
  }

  get grpcStatus(): GrpcStatus {
    if (this.status === 401) return GrpcStatus.UNAUTHENTICATED;
    if (this.status === 400) return GrpcStatus.INVALID_ARGUMENT;
    return TABLE[this.code].grpc;
  }

  /** Normalises anything thrown: our errors pass through; `translate` (the store's, for its
   *  database's errors) may explain a foreign one; everything else becomes a 500 whose message says
   *  nothing of the internals (the original is kept as `cause` for the log). */
  static from(err: unknown, translate?: ErrorTranslator): GatehouseError {
    if (err instanceof GatehouseError) return err;
    return translate?.(err) ?? new GatehouseError('internal_error', 'Internal error', { cause: err });
  }
}

export const badRequest = (message: string, extra?: Extra) => new GatehouseError('bad_request', message, { extra });
export const notFound = (message: string, extra?: Extra) => new GatehouseError('not_found', message, { extra });
export const unauthorized = (message = 'Unauthorized') => new GatehouseError('unauthorized', message);
export const forbidden = (message = 'Forbidden') => new GatehouseError('forbidden', message);
export const conflict = (message: string, extra?: Extra) => new GatehouseError('conflict', message, { extra });
/** The cause of an outage its owner logs once per change of state (jwks-cache.ts): the requests
 *  that fail because of it are not logged one by one (the access log still has each). */
export class OutageCause extends Error {}

export const upstreamUnavailable = (cause?: unknown) => new GatehouseError('service_unavailable', 'Upstream service unavailable', { cause });

/** The contract's HTTP error body. */
export function errorBody(err: GatehouseError, requestId: string): Record<string, unknown> {
  return { ...err.extra, error: err.code, message: err.message, status: err.httpStatus, requestId };
}
