// Apple's token endpoint (POST {appleAuthUrl}/auth/token, RFC 6749 §4.1.3 with Apple's client
// secret JWT): exchanges an authorization code (the web flow's, or an app's at account deletion)
// for Apple's ID token and refresh token; and its revocation endpoint (POST {appleAuthUrl}/auth/revoke,
// RFC 7009), which ends a refresh token (Apple TN3194).
// Outcomes: the ID token; 401 when Apple refuses the code (4xx, e.g. invalid_grant); 503 when the
// endpoint is unreachable, times out, answers 5xx / another status or an unusable body (an upstream
// outage is never reported as 401). The code, the client secret and the answer are never logged.
import { GatehouseError, upstreamUnavailable } from '../errors.ts';
import { HttpBodyTooLarge, HttpTimeout, httpRequest } from '../lib/http-request.ts';

export interface AppleTokenRequest {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  code: string;
  /** The web flow's callback; an app's code is exchanged without one. */
  redirectUri?: string;
  timeoutMs: number;
}

/** Apple refused the code (its `error`, e.g. invalid_grant, is kept for the log). */
export class AppleCodeRefused extends GatehouseError {
  constructor(readonly reason: string) {
    super('unauthorized', 'Apple refused the authorization code');
  }
}

// The cause keeps only a category: a failed request never carries the body, but keep it that way.
const outage = (category: string) => upstreamUnavailable(new Error(`apple token endpoint: ${category}`));

// Apple's answers are a few hundred bytes; a megabyte is not one.
const MAX_ANSWER_BYTES = 1024 * 1024;

/** One form POST to Apple; its status and body, or a 503 (unreachable, timed out, an oversized
 *  answer). A redirect is not followed: its status is the answer. */
async function postForm(url: string, form: Record<string, string>, timeoutMs: number): Promise<{ status: number; text: string }> {
  try {
    return await httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
    });
  } catch (e) {
    throw outage(e instanceof HttpTimeout ? 'timeout' : e instanceof HttpBodyTooLarge ? 'answer too large' : 'unreachable');
  }
}

/** Apple's answer to a refused request: its `error` when it is a plain OAuth error code. */
function refusal(text: string): AppleCodeRefused {
  let reason = 'refused';
  try {
    const err = (JSON.parse(text) as { error?: unknown }).error;
    if (typeof err === 'string' && /^[a-z_]{1,64}$/.test(err)) reason = err;
  } catch {
    /* a refusal without a JSON body is still a refusal */
  }
  return new AppleCodeRefused(reason);
}

export async function exchangeAppleCode(r: AppleTokenRequest): Promise<{ idToken: string; refreshToken: string | null }> {
  const form: Record<string, string> = { client_id: r.clientId, client_secret: r.clientSecret, code: r.code, grant_type: 'authorization_code' };
  if (r.redirectUri !== undefined) form.redirect_uri = r.redirectUri;
  const { status, text } = await postForm(r.tokenUrl, form, r.timeoutMs);
  if (status === 400 || status === 401) throw refusal(text);
  if (status !== 200) throw outage(`status ${status}`);
  let answer: { id_token?: unknown; refresh_token?: unknown };
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    throw outage('malformed answer');
  }
  const idToken = answer?.id_token;
  if (typeof idToken !== 'string' || idToken === '') throw outage('answer without id_token');
  const refreshToken = typeof answer.refresh_token === 'string' && answer.refresh_token !== '' ? answer.refresh_token : null;
  return { idToken, refreshToken };
}

export interface AppleRevokeRequest {
  revokeUrl: string;
  clientId: string;
  clientSecret: string;
  /** The refresh token to end. */
  token: string;
  timeoutMs: number;
}

/** Ends a refresh token at Apple (200); AppleCodeRefused when Apple refuses (4xx), 503 otherwise. */
export async function revokeAppleToken(r: AppleRevokeRequest): Promise<void> {
  const form = { client_id: r.clientId, client_secret: r.clientSecret, token: r.token, token_type_hint: 'refresh_token' };
  const { status, text } = await postForm(r.revokeUrl, form, r.timeoutMs);
  if (status === 200) return;
  if (status >= 400 && status < 500) throw refusal(text);
  throw outage(`revoke status ${status}`);
}
