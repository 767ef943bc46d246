// BillingService handlers of the payment providers (README "Selling plans through
// the App Store and Stripe"): App Store Server Notifications V2 and Stripe webhooks, each verified
// with the provider's own library before anything is read or written, then recorded once per
// provider id and applied in one transaction (PaymentStore); the operator's settings, listing and
// replay.
import type Stripe from 'stripe';
import { badRequest, GatehouseError, notFound } from '../errors.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { toTimestamp, toTimestampOrNull } from '../lib/timestamp.ts';
import type { CallContext } from '../rpc/context.ts';
import type { ServiceImpl } from '../rpc/types.ts';
import { type AppStoreSettings, appStoreVerifier } from './app-store-verify.ts';
import { type BillingNotification, NOTIFICATION_STATUSES, type NotificationFacts, type PaymentStore } from './notifications.ts';
import { settingsAudit } from './provider-records.ts';
import { appStoreEffect, stripeEffect } from './provider-rules.ts';

export interface PaymentsDeps {
  store: PaymentStore;
  clock: Clock;
  /** DER root certificates the App Store's chains must end at (--app-store-root-certs); null: none
   *  configured, every App Store notification is refused. */
  appStoreRoots: Buffer[] | null;
}

export type PaymentHandlers = Pick<
  ServiceImpl<'gatehouse.v1.BillingService'>,
  | 'receiveAppStoreNotification'
  | 'receiveStripeEvent'
  | 'listBillingNotifications'
  | 'replayBillingNotification'
  | 'getPaymentProviderSettings'
  | 'setAppStoreSettings'
  | 'setStripeSettings'
>;

const ENVIRONMENTS = ['Production', 'Sandbox'] as const;
type AppStoreEnvironment = (typeof ENVIRONMENTS)[number];
/** Stripe's own default: a signature older than 5 minutes is refused (replays). */
const STRIPE_TOLERANCE_SECONDS = 300;

/** Stripe's library, loaded at the first Stripe event: some two hundred modules (about half a
 *  CPU-second) that a server without Stripe, and every start, need not load. */
let stripeLibrary: Promise<typeof Stripe> | null = null;
const loadStripe = () => (stripeLibrary ??= import('stripe').then((m) => m.default));

interface StoredAppStore {
  bundleId: string;
  appAppleId: number | null;
  environments: AppStoreEnvironment[];
}

export function notificationView(n: BillingNotification) {
  return {
    notificationId: n.id,
    realmId: n.realmId,
    paymentProvider: n.provider,
    externalId: n.externalId,
    type: n.type,
    status: n.status,
    reason: n.reason,
    userId: n.userId ?? '',
    externalProductId: n.externalProductId,
    externalSubscriptionId: n.externalSubscriptionId,
    subscriptionId: n.subscriptionId ?? '',
    duplicates: n.duplicates,
    providerAt: toTimestamp(n.providerAt),
    receivedAt: toTimestamp(n.receivedAt),
    appliedAt: toTimestampOrNull(n.appliedAt),
  };
}

/** The operator behind an admin call, for its audit record. */
const by = (ctx: CallContext) => ({
  actor: { type: 'api_key' as const, id: ctx.principal?.kind === 'api_key' ? ctx.principal.keyId : 'unknown' },
  requestId: ctx.requestId,
});

const unverified = (what: string, cause?: unknown) => new GatehouseError('unauthorized', `${what}: signature not verified`, { cause });

/** The environment the (not yet verified) payload claims, to pick the verifier that checks it. */
function claimedEnvironment(jws: string): unknown {
  try {
    const body = JSON.parse(Buffer.from(jws.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return body?.data?.environment ?? body?.summary?.environment;
  } catch {
    return undefined;
  }
}

const pageToken = {
  encode: (n: BillingNotification) => Buffer.from(`${n.receivedAt}:${n.id}`).toString('base64url'),
  decode(token: string): { receivedAt: number; id: string } | null {
    if (!token) return null;
    const m = /^(\d{1,15}):(bn_[A-Za-z0-9_-]{1,64})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
    if (!m) throw badRequest('pageToken: not a page token of this listing', { field: 'pageToken' });
    return { receivedAt: Number(m[1]), id: m[2]! };
  },
};

export function createPaymentHandlers({ store, clock, appStoreRoots }: PaymentsDeps): PaymentHandlers {
  /** One verifier per distinct settings: each keeps the chains it verified (app-store-verify.ts). */
  const verifiers = new Map<string, ReturnType<typeof appStoreVerifier>>();
  const verifierFor = (s: AppStoreSettings) => {
    const key = JSON.stringify(s);
    let v = verifiers.get(key);
    if (!v) {
      v = appStoreVerifier(appStoreRoots ?? [], s);
      verifiers.set(key, v);
    }
    return v;
  };

  const settingsView = async (realmId: string) => {
    const [apple, stripe] = await Promise.all([store.providerSettings(realmId, 'app_store'), store.providerSettings(realmId, 'stripe')]);
    const a = apple?.settings as unknown as StoredAppStore | undefined;
    return {
      realmId,
      appStore: a ? { bundleId: a.bundleId, appAppleId: a.appAppleId ?? 0, environments: a.environments } : null,
      stripe: stripe ? { webhookSecretSet: stripe.secret !== null } : null,
    };
  };

  return {
    async receiveAppStoreNotification(req) {
      const stored = await store.providerSettings(req.realmId, 'app_store');
      if (!stored) throw notFound(`Realm ${req.realmId} is not configured for the App Store`);
      if (!req.signedPayload || req.signedPayload.split('.').length !== 3) throw badRequest('signedPayload: a JWS is required', { field: 'signedPayload' });
      if (!appStoreRoots) throw unverified('App Store notification (no root certificates configured)');
      const s = stored.settings as unknown as StoredAppStore;
      const claimed = claimedEnvironment(req.signedPayload);
      const environment = s.environments.find((e) => e === claimed) ?? s.environments[0] ?? 'Production';
      const { payload, transaction } = await verifierFor({ bundleId: s.bundleId, appAppleId: s.appAppleId, environment }).verify(req.signedPayload);
      if (!payload.notificationUUID || !payload.notificationType || typeof payload.signedDate !== 'number') {
        throw badRequest('signedPayload: notificationUUID, notificationType and signedDate are required', { field: 'signedPayload' });
      }
      const type = String(payload.notificationType);
      const facts: NotificationFacts = {
        provider: 'app_store',
        externalId: payload.notificationUUID,
        type,
        effect: appStoreEffect(type, transaction, payload.signedDate),
        providerAt: payload.signedDate,
        user: transaction?.appAccountToken ? { appAccountToken: transaction.appAccountToken.toLowerCase() } : null,
        productIds: transaction?.productId ? [transaction.productId] : [],
        externalSubscriptionId: transaction?.originalTransactionId ?? '',
        transactionId: transaction?.transactionId ?? payload.notificationUUID,
      };
      const { notification, duplicate } = await store.receiveNotification(req.realmId, facts, newId('bn'), clock.now());
      return { notificationId: notification.id, status: duplicate ? 'duplicate' : notification.status };
    },

    async receiveStripeEvent(req, ctx) {
      const stored = await store.providerSettings(req.realmId, 'stripe');
      if (!stored?.secret) throw notFound(`Realm ${req.realmId} is not configured for Stripe`);
      const header = ctx.header('stripe-signature');
      if (!header) throw unverified('Stripe event (no Stripe-Signature header)');
      const stripe = await loadStripe();
      let event: Stripe.Event;
      try {
        // receivedAt (milliseconds) from our clock: the tolerance is measured on the server's time.
        event = stripe.webhooks.constructEvent(Buffer.from(req.payload), header, stored.secret, STRIPE_TOLERANCE_SECONDS, undefined, clock.now());
      } catch (e) {
        if (e instanceof stripe.errors.StripeSignatureVerificationError) throw unverified('Stripe event', e);
        throw badRequest('Malformed Stripe event');
      }
      if (typeof event?.id !== 'string' || typeof event.type !== 'string' || typeof event.created !== 'number') throw badRequest('Malformed Stripe event');
      const facts = stripeFacts(event);
      const { notification, duplicate } = await store.receiveNotification(req.realmId, facts, newId('bn'), clock.now());
      return { notificationId: notification.id, status: duplicate ? 'duplicate' : notification.status };
    },

    async listBillingNotifications(req) {
      const status = req.status || null;
      if (status !== null && !(NOTIFICATION_STATUSES as readonly string[]).includes(status)) {
        throw badRequest(`status: one of ${NOTIFICATION_STATUSES.join(', ')}`, { field: 'status' });
      }
      const size = req.pageSize ?? 50;
      if (!Number.isInteger(size) || size < 1 || size > 200) throw badRequest('pageSize: 1–200', { field: 'pageSize' });
      const rows = await store.listNotifications(req.realmId, {
        status: status as (typeof NOTIFICATION_STATUSES)[number] | null,
        limit: size + 1,
        before: pageToken.decode(req.pageToken),
      });
      const page = rows.slice(0, size);
      return { notifications: page.map(notificationView), nextPageToken: rows.length > size ? pageToken.encode(page[page.length - 1]!) : '' };
    },

    async replayBillingNotification(req) {
      const n = await store.replayNotification(req.realmId, req.notificationId, clock.now());
      if (!n) throw notFound(`Notification ${req.notificationId} not found in realm ${req.realmId}`);
      return notificationView(n);
    },

    async getPaymentProviderSettings(req) {
      await store.listNotifications(req.realmId, { status: null, limit: 0, before: null }); // 404 for an unknown realm
      return settingsView(req.realmId);
    },

    async setAppStoreSettings(req, ctx) {
      const prior = (await store.providerSettings(req.realmId, 'app_store'))?.settings as unknown as StoredAppStore | undefined;
      const bundleId = req.bundleId ?? prior?.bundleId;
      if (!bundleId || !/^[A-Za-z0-9.-]{1,155}$/.test(bundleId)) throw badRequest('bundleId: an app bundle id is required', { field: 'bundleId' });
      const appAppleId = req.appAppleId === undefined || req.appAppleId === null ? (prior?.appAppleId ?? null) : Number(req.appAppleId);
      if (appAppleId !== null && (!Number.isSafeInteger(appAppleId) || appAppleId < 0))
        throw badRequest('appAppleId: a positive integer', { field: 'appAppleId' });
      const environments = req.environments.length > 0 ? [...new Set(req.environments)] : (prior?.environments ?? ['Production']);
      for (const e of environments) {
        if (!(ENVIRONMENTS as readonly string[]).includes(e)) throw badRequest(`environments: ${ENVIRONMENTS.join(' or ')}`, { field: 'environments' });
      }
      // Apple's library checks the app Apple id in production, so production needs one.
      if (environments.includes('Production') && !appAppleId) throw badRequest('appAppleId: required for the Production environment', { field: 'appAppleId' });
      const settings: StoredAppStore = { bundleId, appAppleId: appAppleId || null, environments: environments as AppStoreEnvironment[] };
      const now = clock.now();
      const after = { ...settings };
      const audit = settingsAudit({
        realmId: req.realmId,
        provider: 'app_store',
        before: prior ? { ...prior } : null,
        after,
        secretSet: false,
        ...by(ctx),
        now,
      });
      await store.putProviderSettings(req.realmId, 'app_store', after, undefined, audit, now);
      return settingsView(req.realmId);
    },

    async setStripeSettings(req, ctx) {
      const secret = req.webhookSecret;
      if (secret !== undefined && secret !== null && !/^whsec_[A-Za-z0-9+/=_-]{8,200}$/.test(secret)) {
        throw badRequest('webhookSecret: the endpoint secret Stripe shows (whsec_…)', { field: 'webhookSecret' });
      }
      const prior = await store.providerSettings(req.realmId, 'stripe');
      if (!prior && !secret) throw badRequest('webhookSecret: required', { field: 'webhookSecret' });
      const now = clock.now();
      const audit = settingsAudit({
        realmId: req.realmId,
        provider: 'stripe',
        before: prior?.settings ?? null,
        after: {},
        secretSet: !!secret,
        ...by(ctx),
        now,
      });
      await store.putProviderSettings(req.realmId, 'stripe', {}, secret ?? undefined, audit, now);
      return settingsView(req.realmId);
    },
  };
}

/** The facts of a verified Stripe event: customer.subscription.* name the user
 *  (metadata.gatehouse_user_id of the subscription, or of the customer when it is expanded) and the
 *  price and product of its first item; other events are recorded as ignored. */
export function stripeFacts(event: Stripe.Event): NotificationFacts {
  const base = { provider: 'stripe' as const, externalId: event.id, type: event.type, providerAt: event.created * 1000, transactionId: event.id };
  if (!event.type.startsWith('customer.subscription.')) {
    return { ...base, effect: stripeEffect(event.type, ''), user: null, productIds: [], externalSubscriptionId: '' };
  }
  const sub = event.data.object as Stripe.Subscription;
  const customer = typeof sub.customer === 'object' && sub.customer !== null && 'metadata' in sub.customer ? sub.customer.metadata : undefined;
  const userId = sub.metadata?.gatehouse_user_id || customer?.gatehouse_user_id || '';
  const price = sub.items?.data?.[0]?.price;
  const product = price ? (typeof price.product === 'string' ? price.product : price.product?.id) : undefined;
  return {
    ...base,
    effect: stripeEffect(event.type, String(sub.status ?? '')),
    user: userId ? { userId } : null,
    productIds: [price?.id, product].filter((p): p is string => typeof p === 'string' && p !== ''),
    externalSubscriptionId: String(sub.id ?? ''),
  };
}
