// RFC 6749 §5.2 error responses: the code in `error`, a human text in `error_description` (and the
// contract's `message`). The cause of a refusal stays in the log.
import { type ErrorCode, GatehouseError } from '../errors.ts';

export function oauthError(code: ErrorCode, description: string, opts: { status?: 400 | 401 } = {}): GatehouseError {
  // A 401 of the token endpoint challenges client authentication (RFC 6749 §5.2, §2.3.1).
  const unauthorized = code === 'invalid_client' || opts.status === 401;
  const headers = unauthorized ? { 'www-authenticate': 'Basic realm="gatehouse"' } : undefined;
  return new GatehouseError(code, description, { extra: { error_description: description }, status: opts.status, headers });
}
