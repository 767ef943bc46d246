// Revoking a deleted account's Apple tokens (docs/login.md "Deleting an account"; App Store Review Guideline 5.1.1(v),
// Apple TN3194). The deletion queues the jobs in its own transaction (planned here, pure); they run
// after the commit, at once and then from the durable queue, retried for 24 hours:
// - `apple.revoke_code`: an authorization code the app obtained for the deletion, exchanged at
//   {appleAuthUrl}/auth/token (client_id = the provider's clientId, the app's bundle id) for a
//   refresh token, which is then revoked;
// - `apple.revoke_token`: a refresh token the web flow kept, revoked at {appleAuthUrl}/auth/revoke
//   (client_id = the Services ID it was issued to).
// The client secret is the web flow's ES256 JWT with `sub` = that client id. Codes and tokens travel
// as the job's secret: never in its payload, an event, an audit record or a log line.
import type { ProviderConfig } from '../admin/model.ts';
import type { AdminStore } from '../admin/store.ts';
import type { AttemptResult, Job, JobPolicy } from '../jobs/model.ts';
import type { JobHandler } from '../jobs/queue.ts';
import { newJob } from '../jobs/retry.ts';
import type { JobStore } from '../jobs/store.ts';
import type { Clock } from '../lib/clock.ts';
import type { RevocationPlanner } from '../users/delete-account.ts';
import type { AccountSnapshot } from '../users/deletion.ts';
import { AppleCodeRefused, exchangeAppleCode, revokeAppleToken } from './apple-token.ts';
import { appleClientSecret } from './client-secret.ts';

/** One call to Apple's token or revocation endpoint. */
export const APPLE_TOKEN_TIMEOUT_MS = 5000;

export const REVOKE_CODE = 'apple.revoke_code';
export const REVOKE_TOKEN = 'apple.revoke_token';

/** Retried for 24 hours (docs/login.md): first after about 30 s, then doubling up to an hour. */
export const APPLE_REVOCATION_POLICY: JobPolicy = {
  baseDelayMs: 30_000,
  maxDelayMs: 3_600_000,
  leaseMs: 60_000,
  lifetimeMs: 24 * 3_600_000,
  auditOutcome: true,
};

/** The realm's Apple settings a revocation needs, or null when it cannot revoke (no signing key). */
export function revocationSettings(p: ProviderConfig | null): { clientId: string; webClientId: string } | null {
  if (!p || !p.teamId || !p.keyId || !p.privateKey) return null;
  return { clientId: p.clientId, webClientId: p.webClientId || p.clientId };
}

/** The jobs revoking what the deleted account's Apple identities left: the app's fresh code (when
 *  given) and every refresh token the web flow kept. None when the realm's Apple provider cannot
 *  sign a client secret. */
export function planAppleRevocations(
  settings: { clientId: string; webClientId: string } | null,
  userId: string,
  realmId: string,
  identities: AccountSnapshot['identities'],
  code: string | null,
  now: number,
): Job[] {
  if (!settings) return [];
  const jobs: Job[] = [];
  if (code) jobs.push(newJob(REVOKE_CODE, realmId, { userId, clientId: settings.clientId }, code, now, APPLE_REVOCATION_POLICY));
  for (const i of identities) {
    if (i.provider !== 'apple' || !i.appleRefreshToken) continue;
    jobs.push(newJob(REVOKE_TOKEN, realmId, { userId, clientId: settings.webClientId }, i.appleRefreshToken, now, APPLE_REVOCATION_POLICY));
  }
  return jobs;
}

/** The deletion's planner: the realm's Apple settings read before its transaction. */
export function appleRevocationPlanner(admin: AdminStore): RevocationPlanner {
  return {
    async prepare(realmId, code, now) {
      const settings = revocationSettings(await admin.getProvider(realmId, 'apple'));
      return (snapshot) => planAppleRevocations(settings, snapshot.user.id, realmId, snapshot.identities, code, now);
    },
  };
}

export interface AppleRevocationDeps {
  admin: AdminStore;
  jobs: JobStore;
  clock: Clock;
  appleAuthUrl: string;
  timeoutMs: number;
}

/** The queue's handlers of the two kinds. */
export function appleRevocationHandlers(deps: AppleRevocationDeps): Map<string, JobHandler> {
  /** The job's client id and a fresh client secret for it, or why there is none. */
  async function credentials(job: Job): Promise<{ clientId: string; secret: string } | AttemptResult> {
    const clientId = String(job.payload.clientId);
    const p = await deps.admin.getProvider(job.realmId, 'apple');
    if (!p || !p.teamId || !p.keyId || !p.privateKey) return { kind: 'retry', error: 'the Apple provider has no team id, key id and private key' };
    try {
      const now = Math.floor(deps.clock.now() / 1000);
      return { clientId, secret: await appleClientSecret({ teamId: p.teamId, keyId: p.keyId, servicesId: clientId, privateKeyPem: p.privateKey, now }) };
    } catch {
      return { kind: 'retry', error: 'the Apple private key cannot sign a client secret' };
    }
  }

  async function revoke(clientId: string, clientSecret: string, token: string): Promise<void> {
    await revokeAppleToken({ revokeUrl: `${deps.appleAuthUrl}/auth/revoke`, clientId, clientSecret, token, timeoutMs: deps.timeoutMs });
  }

  const failure = (e: unknown): AttemptResult => ({
    kind: 'retry',
    error: e instanceof AppleCodeRefused ? `Apple refused: ${e.reason}` : e instanceof Error ? e.message : 'failed',
  });

  const revokeToken: JobHandler = {
    policy: APPLE_REVOCATION_POLICY,
    async run(job) {
      const c = await credentials(job);
      if ('kind' in c) return c;
      try {
        await revoke(c.clientId, c.secret, job.secret ?? '');
        return { kind: 'done', detail: { outcome: 'revoked' } };
      } catch (e) {
        return failure(e);
      }
    },
  };

  const revokeCode: JobHandler = {
    policy: APPLE_REVOCATION_POLICY,
    async run(job) {
      const c = await credentials(job);
      if ('kind' in c) return c;
      const { clientId, secret } = c;
      let refreshToken: string | null;
      try {
        ({ refreshToken } = await exchangeAppleCode({
          tokenUrl: `${deps.appleAuthUrl}/auth/token`,
          clientId,
          clientSecret: secret,
          code: job.secret ?? '',
          timeoutMs: deps.timeoutMs,
        }));
      } catch (e) {
        return failure(e);
      }
      if (refreshToken === null) return { kind: 'done', detail: { outcome: 'no_refresh_token' } };
      try {
        await revoke(clientId, secret, refreshToken);
        return { kind: 'done', detail: { outcome: 'revoked' } };
      } catch {
        // The code is spent: what is left to revoke is the token it gave, in a job of its own.
        const next = newJob(REVOKE_TOKEN, job.realmId, { userId: job.payload.userId, clientId }, refreshToken, deps.clock.now(), APPLE_REVOCATION_POLICY);
        await deps.jobs.enqueue(next);
        return { kind: 'done', detail: { outcome: 'handed_over', jobId: next.id } };
      }
    },
  };

  return new Map([
    [REVOKE_CODE, revokeCode],
    [REVOKE_TOKEN, revokeToken],
  ]);
}
