// The life of a downstream authorization transaction (authorize.ts stores it, a login spends it on
// a one-time code), pure: the store reads the transaction in one transaction, asks these, and
// writes what they say.
import type { AuthorizationCode, AuthorizeTransaction, CodeDraft, IssueCodeResult } from './store.ts';

/** Whether a new transaction may take its `state` at `now`: not while the realm's transaction
 *  with that state is still pending (neither consumed nor expired) — that one's login may still
 *  land. An expired or consumed one is replaced. */
export function mayStartTransaction(existing: AuthorizeTransaction | null, now: number): boolean {
  return !existing || existing.consumedAt !== null || existing.expiresAt <= now;
}

/** An IssueCodeResult (what the caller gets) with what the store must write for it: on `ok`, mark
 *  `tx` consumed and store `code`. */
export type CodeIssueDecision = Exclude<IssueCodeResult, { kind: 'ok' }> | { kind: 'ok'; tx: AuthorizeTransaction; code: AuthorizationCode };

/** In this order: an unknown transaction; `check`'s refusal (authorize.ts transactionRefusal);
 *  a consumed one (a transaction issues one code); else the code, bound to the client, redirect
 *  URI, PKCE challenge and scope the transaction was started with (RFC 6749 §4.1.3, RFC 7636 §4.6). */
export function decideCodeIssue(tx: AuthorizeTransaction | null, check: (tx: AuthorizeTransaction) => string | null, draft: CodeDraft): CodeIssueDecision {
  if (!tx) return { kind: 'refused', reason: 'unknown' };
  const refusal = check(tx);
  if (refusal) return { kind: 'refused', reason: refusal };
  if (tx.consumedAt !== null) return { kind: 'refused', reason: 'consumed' };
  const code: AuthorizationCode = {
    ...draft,
    clientId: tx.clientId,
    redirectUri: tx.redirectUri,
    codeChallenge: tx.codeChallenge,
    scope: tx.scope,
    usedAt: null,
    familyId: null,
  };
  return { kind: 'ok', tx, code };
}
