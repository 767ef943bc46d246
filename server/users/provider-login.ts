// What a provider login writes (docs/login.md), pure: the store reads the
// account the identity names (or, without one, the account holding the login's email), asks
// planProviderLogin, and executes the plan in one transaction.
import { conflict } from '../errors.ts';
import type { GatehouseEvent } from '../events/model.ts';
import { userCreatedEvent } from './account-events.ts';
import { type Identity, type ProviderLogin, planLoginMatch, type User } from './model.ts';

export interface LoginPlan {
  /** The account the login lands on, as it is once the plan is written. */
  user: User;
  /** Insert `user`, a new account. */
  create: boolean;
  /** Write `user`'s name: the account had none and the login brings one. */
  setName: boolean;
  /** Insert this link of the provider subject to `user`, or nothing (it is linked already). */
  link: Identity | null;
  /** The outbox events to write with it: `user.created` for a new account. */
  events: GatehouseEvent[];
}

/** What a new account would get: `newId` is called only when the plan creates one, so a returning
 *  user's login draws no id. */
export interface NewUser {
  newId: () => string;
  now: number;
}

/** The plan for `login`, given the account its (provider, subject) names and, when none does, the
 *  account holding its email (planLoginMatch decides between them). A name is stored only while
 *  the account has none: it is never overwritten by what a later token says. */
export function planProviderLogin(login: ProviderLogin, byIdentity: User | null, byEmail: User | null, newUser: NewUser): LoginPlan {
  const match = planLoginMatch(
    login,
    byIdentity ? { userId: byIdentity.id } : null,
    byEmail ? { userId: byEmail.id, email: byEmail.email, emailVerified: byEmail.emailVerified } : null,
  );
  const name = login.fullName;
  if (match.kind === 'create') {
    const user: User = {
      id: newUser.newId(),
      realmId: login.realmId,
      email: match.email,
      emailVerified: match.emailVerified,
      givenName: name?.givenName || null,
      familyName: name?.familyName || null,
      createdAt: newUser.now,
      updatedAt: newUser.now,
      disabledAt: null,
    };
    return { user, create: true, setName: false, link: linkOf(login, user.id, newUser.now), events: [userCreatedEvent(user, login.provider)] };
  }
  const found = (match.kind === 'identity' ? byIdentity : byEmail)!;
  const setName = hasName(name) && found.givenName === null && found.familyName === null;
  const user = setName ? { ...found, givenName: name.givenName || null, familyName: name.familyName || null, updatedAt: newUser.now } : found;
  return { user, create: false, setName, link: match.kind === 'link' ? linkOf(login, user.id, newUser.now) : null, events: [] };
}

/** Whether the plan writes nothing: a returning user whose name is known or who brings none. */
export function writesNothing(plan: LoginPlan): boolean {
  return !plan.create && !plan.setName && plan.link === null;
}

/** Whether a plan made from reads outside the write transaction may be answered as it is, when it
 *  writes nothing: links are never moved, so what the subject is linked to now it stays linked to
 *  until the account is deleted (a session then started for it is refused: AuthStore.createFamily)
 *  or the link removed (linking.ts; the login read before the removal committed, and is answered
 *  as if it had come just before it).
 *  Only for a login that brings no name: one that does usually has a name to store, and
 *  re-planning it inside the transaction would read everything twice. */
export function mayAnswerByRead(login: ProviderLogin): boolean {
  return !hasName(login.fullName);
}

/** The planned account's email is taken: the insert met the realm's unique email. The plan looked
 *  the login's email up, so only a placeholder can collide — an address someone registered by hand
 *  as `{sub}@{provider}.placeholder`. Refused rather than merged. */
export const loginEmailTaken = () => conflict('The account email for this sign-in is taken by another account');

const linkOf = (login: ProviderLogin, userId: string, now: number): Identity => ({
  realmId: login.realmId,
  provider: login.provider,
  subject: login.subject,
  userId,
  email: login.email,
  emailForwarding: null,
  createdAt: now,
});

const hasName = (n: ProviderLogin['fullName']): n is NonNullable<ProviderLogin['fullName']> => !!n && (n.givenName !== '' || n.familyName !== '');
