// The auth concern's storage interface. Methods return Promises (a PostgreSQL store can implement

// the same interface); each method is one transaction. Domain decisions that must happen inside a
// transaction are passed in as pure callbacks.
import type { IpBinding } from '../admin/model.ts';
import type { ChangeBy } from '../admin/store.ts';
import type { Emitted } from '../events/plan.ts';
import type { RotationDecision } from './signing-key-rotation.ts';

/** The algorithms gatehouse signs its access tokens with (access-token.ts). */
export const SIGNING_ALGORITHMS = ['ES256', 'EdDSA'] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

export interface SigningKeyRecord {
  kid: string;
  realmId: string;
  alg: SigningAlgorithm;
  privatePem: string;
  publicJwk: Record<string, string>;
  createdAt: number;
  /** null for the realm's current key; for a rotated one, when it stops verifying and leaves the
   *  JWKS (signing-key-rotation.ts). */
  retiredAt: number | null;
}

export interface SigningKeyRotation {
  /** The realm's current key after the call. */
  current: SigningKeyRecord;
  /** The key it replaced (with its retirement time), or null when nothing was rotated. */
  replaced: SigningKeyRecord | null;
  rotated: boolean;
}

export interface TokenFamily {
  id: string;
  realmId: string;
  userId: string;
  clientId: string;
  ip: string;
  ipBinding: IpBinding;
  accessTtlS: number;
  refreshTtlS: number;
  createdAt: number;
  revokedAt: number | null;
  /** The provider whose sign-in opened the family (`apple`, `google`); null: unknown (opened before
   *  families recorded it), treated as no provider's. */
  provider: string | null;
}

export interface NewRefreshToken {
  hash: string;
  expiresAt: number;
}

/** A stored refresh token (only its SHA-256 is kept). */
export interface RefreshTokenRecord {
  hash: string;
  familyId: string;
  expiresAt: number;
  /** When it was exchanged for its successor; a rotated token coming back is a reuse. */
  rotatedAt: number | null;
}

export type RotateResult =
  | { kind: 'ok'; family: TokenFamily }
  | { kind: 'unknown' }
  | { kind: 'expired' }
  | { kind: 'revoked' }
  /** A rotated token came back: the family is now revoked (docs/login.md). */
  | { kind: 'reused'; family: TokenFamily }
  /** `check` refused (wrong client, outside the IP binding): nothing changed. */
  | { kind: 'refused'; reason: string };

export interface AuthorizeTransaction {
  realmId: string;
  state: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}

export interface AuthorizationCode {
  hash: string;
  realmId: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  userId: string;
  ip: string;
  /** The provider whose sign-in issued the code; the family it makes records it. */
  provider: string | null;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  familyId: string | null;
}

/** A code to issue for a transaction: the rest it takes from the transaction (authorize-transaction.ts). */
export type CodeDraft = Omit<AuthorizationCode, 'redirectUri' | 'codeChallenge' | 'scope' | 'clientId' | 'usedAt' | 'familyId'>;

export type IssueCodeResult = { kind: 'ok'; tx: AuthorizeTransaction } | { kind: 'refused'; reason: string };

export type ExchangeCodeResult =
  | { kind: 'ok'; code: AuthorizationCode }
  | { kind: 'unknown' }
  /** Replayed: the family issued from it is revoked (RFC 6749 §4.1.2). */
  | { kind: 'replayed' }
  | { kind: 'refused'; reason: string };

/** A Sign in with Apple web attempt (apple-web.ts): its own state (stored hashed) and nonce. */
export interface WebLoginAttempt {
  stateHash: string;
  realmId: string;
  clientId: string;
  downstreamState: string | null;
  /** Raw nonce; Apple receives its SHA-256 hex and echoes it in the ID token. */
  nonce: string;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}

export type ConsumeWebAttemptResult = { kind: 'ok'; attempt: WebLoginAttempt } | { kind: 'refused'; reason: 'unknown' | 'consumed' | 'expired' };

/** Login state the periodic sweep deletes (sweep.ts), once it can never be used again: what may go
 *  of each kind is sweep-rules.ts `SWEEP_RULES`. */
export type SweepKind = 'transactions' | 'codes' | 'webAttempts' | 'families' | 'appleNotifications';
export const SWEEP_KINDS: readonly SweepKind[] = ['transactions', 'codes', 'webAttempts', 'families', 'appleNotifications'];

export interface AuthStore {
  /** The realm's current signing key, created by `create` (inside the transaction) when missing. */
  currentSigningKey(realmId: string, create: () => SigningKeyRecord): Promise<SigningKeyRecord>;
  signingKey(kid: string): Promise<SigningKeyRecord | null>;
  signingKeys(realmId: string): Promise<SigningKeyRecord[]>;
  /** Replaces the realm's current key by `create(current)` when `decide` (signing-key-rotation.ts) says
   *  so, in one transaction holding the realm's lock, so replicas rotating together rotate once.
   *  `decide` is given the current key and the longest access-token lifetime (seconds) of the
   *  realm's clients and live sessions. Its audit record names `by` (default: gatehouse itself). */
  rotateSigningKey(
    realmId: string,
    now: number,
    decide: (current: SigningKeyRecord | null, longestAccessTtlS: number | null) => RotationDecision,
    create: (current: SigningKeyRecord | null) => SigningKeyRecord,
    by?: ChangeBy,
  ): Promise<SigningKeyRotation>;
  /** The realms whose current key was created at or before `createdAt` (the scheduled rotation). */
  realmsWithKeysCreatedBy(createdAt: number): Promise<string[]>;
  /** Changes whenever signing keys may have changed, in this process or another: a cache of keys
   *  holds while it stays the same. */
  signingKeysVersion(): Promise<number>;

  createFamily(family: TokenFamily, refresh: NewRefreshToken): Promise<void>;
  getFamily(id: string): Promise<TokenFamily | null>;
  /** How much login state the store holds, every realm together (what an operator checks stays
   *  bounded, and what a test checks a refusal left unwritten). */
  totals(): Promise<{ families: number; refreshTokens: number; codes: number; transactions: number; webAttempts: number }>;
  /** Exchanges a refresh token for `next`: reuse revokes the family; `check` may refuse
   *  (refresh-rotation.ts decides). */
  rotateRefreshToken(hash: string, now: number, check: (f: TokenFamily) => string | null, next: (f: TokenFamily) => NewRefreshToken): Promise<RotateResult>;
  /** The family of a refresh token (any state), or null. */
  familyOfRefreshToken(hash: string): Promise<{ family: TokenFamily; expiresAt: number; rotatedAt: number | null } | null>;
  /** Revokes the family unless it is revoked already (family-lifetime.ts); unknown ids are ignored. */
  revokeFamily(id: string, now: number, reason: string, emitted?: (family: TokenFamily) => Emitted): Promise<void>;
  /** One transaction: revokes every family of the user that revocation applies to
   *  (family-lifetime.ts); answers how many it revoked. */
  revokeFamiliesOfUser(realmId: string, userId: string, now: number, reason: string, emitted?: (revokedIds: string[]) => Emitted): Promise<number>;

  /** false when a transaction with that state is still pending in the realm (authorize-transaction.ts). */
  createAuthorizeTransaction(tx: AuthorizeTransaction): Promise<boolean>;
  getAuthorizeTransaction(realmId: string, state: string): Promise<AuthorizeTransaction | null>;
  /** Consumes the pending transaction (after `check`) and stores the code, atomically. */
  issueCode(realmId: string, state: string, now: number, check: (tx: AuthorizeTransaction) => string | null, code: CodeDraft): Promise<IssueCodeResult>;
  /** Stores a new web login attempt (the state hash is random and unique). */
  createWebAttempt(a: WebLoginAttempt): Promise<void>;
  /** Marks the realm's attempt used, once: a second call, an unknown or an expired state is refused
   *  (web-attempt.ts). */
  consumeWebAttempt(realmId: string, stateHash: string, now: number): Promise<ConsumeWebAttemptResult>;
  /** Uses the code once (after `check`) and creates the family issued from it, atomically; a
   *  replay revokes that family (code-exchange.ts). */
  exchangeCode(
    hash: string,
    now: number,
    check: (c: AuthorizationCode) => string | null,
    family: (c: AuthorizationCode) => { family: TokenFamily; refresh: NewRefreshToken },
  ): Promise<ExchangeCodeResult>;

  /** Deletes rows of `kind` that can no longer be used at `now`, at most `limit` per statement so
   *  one call holds the database briefly; returns how many went (0: nothing left to delete). */
  sweep(kind: SweepKind, now: number, limit: number): Promise<number>;
}
