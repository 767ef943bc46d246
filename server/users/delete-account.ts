// Account deletion (docs/login.md "Deleting an account"): the use case behind
// DELETE /api/oauth/{realmId}/me, DELETE /api/admin/realms/{realmId}/users/{userId}, `gatehouse
// users delete` and Apple's `account-delete` notification. One transaction deletes (deletion.ts
// plans it); the Apple revocations it queued then run at once, after the commit: their outcome is
// the answer's appleRevocation, and what failed stays in the durable queue. The purge of the
// account's points rows (purge.ts) starts then too, and is not waited for.
import { badRequest, notFound } from '../errors.ts';
import type { AttemptResult, Job } from '../jobs/model.ts';
import type { Clock } from '../lib/clock.ts';
import { toTimestamp } from '../lib/timestamp.ts';
import type { CallContext, UserPrincipal } from '../rpc/context.ts';
import type { RequestOut } from '../rpc/types.ts';
import { type AccountSnapshot, type AppleRevocation, type DeleteAccount, type DeletedAccount, planAccountDeletion } from './deletion.ts';
import { USER_PURGE } from './purge.ts';
import type { UserStore } from './store.ts';

/** Plans the revocation jobs of a deletion: `prepare` reads what it needs before the transaction
 *  and hands back the pure planner run inside it (auth/apple-revocation.ts). */
export interface RevocationPlanner {
  prepare(realmId: string, code: string | null, now: number): Promise<(snapshot: AccountSnapshot) => Job[]>;
}

export interface AccountDeletionDeps {
  users: UserStore;
  clock: Clock;
  revocations: RevocationPlanner;
  /** The job held by this process (jobs/queue.ts hold), and its attempt after the commit (runHeld). */
  holdJob(job: Job, now: number): Job;
  runHeldJob(job: Job): Promise<AttemptResult>;
}

/** Longest authorization code accepted (Apple's are a few hundred characters). */
const MAX_CODE_LENGTH = 2048;

/** `revoked` when every attempt revoked its token, `pending` when one is left to the queue. */
export function revocationOutcome(results: Array<AttemptResult | null>): AppleRevocation {
  if (results.length === 0) return 'none';
  return results.every((r) => r?.kind === 'done' && r.detail?.outcome !== 'handed_over') ? 'revoked' : 'pending';
}

export function createAccountDeletion(deps: AccountDeletionDeps): DeleteAccount {
  return async (input) => {
    const code = input.appleAuthorizationCode || null;
    if (code !== null && code.length > MAX_CODE_LENGTH) throw badRequest('appleAuthorizationCode: too long', { field: 'appleAuthorizationCode' });
    const now = deps.clock.now();
    const plan = input.revokeAtApple ? await deps.revocations.prepare(input.realmId, code, now) : () => [];
    // The jobs are written held by this process, which runs them as soon as the deletion has
    // committed: no other replica's poll takes them meanwhile.
    const deleted = await deps.users.deleteAccount(input.realmId, input.userId, (snapshot) => {
      const p = planAccountDeletion(snapshot, input, now, plan(snapshot));
      return { ...p, emitted: { ...p.emitted, jobs: p.emitted.jobs.map((j) => deps.holdJob(j, now)) } };
    });
    if (!deleted) throw notFound(`User ${input.userId} not found in realm ${input.realmId}`);
    // After the commit: the account is gone; its rows go in batches behind the answer (an attempt
    // that fails, or a process that dies, leaves the rest to the queue).
    const purges = deleted.emitted.jobs.filter((j) => j.kind === USER_PURGE);
    for (const j of purges) void deps.runHeldJob(j).catch(() => null);
    // The deletion stands whatever Apple answers.
    const revocations = deleted.emitted.jobs.filter((j) => j.kind !== USER_PURGE);
    const results = await Promise.all(revocations.map((j) => deps.runHeldJob(j).catch(() => null)));
    return { userId: deleted.userId, deletedAt: deleted.deletedAt, appleRevocation: revocationOutcome(results) };
  };
}

const answer = (d: DeletedAccount) => ({ userId: d.userId, deletedAt: toTimestamp(d.deletedAt), appleRevocation: d.appleRevocation });

/** DELETE /api/oauth/{realmId}/me: the caller's own account. */
export function createDeleteMe(deleteAccount: DeleteAccount) {
  return async function deleteMe(req: RequestOut<'gatehouse.v1.AuthService', 'DeleteMe'>, ctx: CallContext) {
    const p = ctx.principal as UserPrincipal;
    const d = await deleteAccount({
      realmId: req.realmId,
      userId: p.userId,
      actor: { type: 'user', id: p.userId },
      requestId: ctx.requestId,
      appleAuthorizationCode: req.appleAuthorizationCode,
      revokeAtApple: true,
    });
    ctx.log.info('account deleted', { realmId: req.realmId, userId: d.userId, by: 'user', appleRevocation: d.appleRevocation });
    return answer(d);
  };
}

/** DELETE /api/admin/realms/{realmId}/users/{userId} (users.manage). */
export function createDeleteUser(deleteAccount: DeleteAccount) {
  return async function deleteUser(req: RequestOut<'gatehouse.v1.AdminService', 'DeleteUser'>, ctx: CallContext) {
    const key = ctx.principal?.kind === 'api_key' ? ctx.principal.keyId : 'unknown';
    const d = await deleteAccount({
      realmId: req.realmId,
      userId: req.userId,
      actor: { type: 'api_key', id: key },
      requestId: ctx.requestId,
      revokeAtApple: true,
    });
    ctx.log.info('account deleted', { realmId: req.realmId, userId: d.userId, by: 'api_key', appleRevocation: d.appleRevocation });
    return answer(d);
  };
}
