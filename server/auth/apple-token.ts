// Apple's token endpoint (POST {appleAuthUrl}/auth/token, RFC 6749 §4.1.3 with Apple's client
// secret JWT): exchanges the web flow's authorization code for Apple's ID token.
// Outcomes: the ID token; 401 when Apple refuses the code (4xx, e.g. invalid_grant); 503 when the
// endpoint is unreachable, times out, answers 5xx / another status or an unusable body (an upstream
// outage is never reported as 401). The code, the client secret and the answer are never logged.
import { GatehouseError, upstreamUnavailable } from '../errors.ts';

export interface AppleTokenRequest {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  code: string;
  redirectUri: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** Apple refused the code (its `error`, e.g. invalid_grant, is kept for the log). */
export class AppleCodeRefused extends GatehouseError {
  constructor(readonly reason: string) {
    super('unauthorized', 'Apple refused the authorization code');
  }
}

// The cause keeps only a category: a fetch error never carries the body, but keep it that way.
const outage = (category: string) => upstreamUnavailable(new Error(`apple token endpoint: ${category}`));

export async function exchangeAppleCode(r: AppleTokenRequest): Promise<{ idToken: string }> {
  const body = new URLSearchParams({
    client_id: r.clientId,
    client_secret: r.clientSecret,
    code: r.code,
    grant_type: 'authorization_code',
    redirect_uri: r.redirectUri,
  });
  let res: Response;
  let text: string;
  try {
    res = await (r.fetch ?? fetch)(r.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: body.toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(r.timeoutMs),
    });
    text = await res.text();
  } catch (e) {
    throw outage((e as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable');
  }
  if (res.status === 400 || res.status === 401) {
    let reason = 'refused';
    try {
      const err = (JSON.parse(text) as { error?: unknown }).error;
      if (typeof err === 'string' && /^[a-z_]{1,64}$/.test(err)) reason = err;
    } catch {
      /* a refusal without a JSON body is still a refusal */
    }
    throw new AppleCodeRefused(reason);
  }
  if (res.status !== 200) throw outage(`status ${res.status}`);
  let idToken: unknown;
  try {
    idToken = (JSON.parse(text) as { id_token?: unknown }).id_token;
  } catch {
    throw outage('malformed answer');
  }
  if (typeof idToken !== 'string' || idToken === '') throw outage('answer without id_token');
  return { idToken };
}
