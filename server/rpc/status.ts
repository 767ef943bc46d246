// What each error code is on the wire (docs/errors.md): its HTTP status, its gRPC status, and the
// contract's HTTP error body. The one gRPC↔HTTP table; the codes themselves are errors.ts's.
import { status as GrpcStatus } from '@grpc/grpc-js';
import type { ErrorCode, GatehouseError } from '../errors.ts';

interface CodeInfo {
  http: number;
  grpc: GrpcStatus;
}

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
  identity_in_use: { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION },
  last_identity: { http: 409, grpc: GrpcStatus.FAILED_PRECONDITION },
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

/** The HTTP status of `err`: its code's, or the one it asks for (GatehouseError `status`). */
export function httpStatusOf(err: GatehouseError): number {
  return err.status ?? TABLE[err.code].http;
}

/** The gRPC status of `err`, the one its asked-for HTTP status stands for where it has one. */
export function grpcStatusOf(err: GatehouseError): GrpcStatus {
  if (err.status === 401) return GrpcStatus.UNAUTHENTICATED;
  if (err.status === 400) return GrpcStatus.INVALID_ARGUMENT;
  return TABLE[err.code].grpc;
}

/** The contract's HTTP error body. */
export function errorBody(err: GatehouseError, requestId: string): Record<string, unknown> {
  return { ...err.extra, error: err.code, message: err.message, status: httpStatusOf(err), requestId };
}
