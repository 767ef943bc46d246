// One error type for the whole service. Codes are the contract's snake_case strings (docs/errors.md);
// messages are for people; `cause` stays in logs and never reaches a client. What each code is on
// the wire (HTTP status, gRPC status, the error body) is the transports' table, rpc/status.ts: the
// domain throws these without knowing of either transport.

export const ERROR_CODES = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'mapping_in_use',
  'insufficient_points',
  'idempotency_conflict',
  'hold_expired',
  'hold_closed',
  'too_many_holds',
  'refund_exceeds',
  'identity_in_use',
  'last_identity',
  'payload_too_large',
  'rate_limited',
  'service_unavailable',
  'internal_error',
  'method_not_allowed',
  // RFC 6749 §5.2 codes, used by the token endpoint in the `error` field.
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  // RFC 6749 §4.1.2.1, at /authorize.
  'unsupported_response_type',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export type Extra = Record<string, string | number | boolean | null>;

const CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** Whether `s` is one of the codes above (the CLI reads them back from a gRPC ErrorInfo). */
export function isErrorCode(s: string): s is ErrorCode {
  return CODES.has(s);
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

  /** Normalises anything thrown: our errors pass through (the stores hand back ours for their
   *  database's, store/backend.ts); everything else becomes a 500 whose message says nothing of the
   *  internals (the original is kept as `cause` for the log). */
  static from(err: unknown): GatehouseError {
    if (err instanceof GatehouseError) return err;
    return new GatehouseError('internal_error', 'Internal error', { cause: err });
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
