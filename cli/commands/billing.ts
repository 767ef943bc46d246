// gatehouse billing: the payment providers that drive subscriptions (README "Selling plans through
// the App Store and Stripe"): their settings (secrets write-only), the notifications they sent, and
// the replay of an unmatched one.
import { Command } from 'commander';
import { type CliRequest, collect, globals, parseIntArg, realmOf, rpc, show } from '../context.ts';
import { record, table } from '../output.ts';

type Settings = Awaited<ReturnType<typeof rpc<'BillingService', 'GetPaymentProviderSettings'>>>;

function settingsText(s: Settings): string {
  const apple = s.appStore
    ? `App Store: bundle id ${s.appStore.bundleId}, app Apple id ${s.appStore.appAppleId || '-'}, environments ${(s.appStore.environments ?? []).join(', ')}`
    : 'App Store: not configured';
  const stripe = s.stripe ? `Stripe: endpoint secret ${s.stripe.webhookSecretSet ? 'set' : 'not set'}` : 'Stripe: not configured';
  return `${apple}\n${stripe}`;
}

export function billingCommand(): Command {
  const cmd = new Command('billing').description('payment providers: App Store and Stripe settings, their notifications');

  cmd
    .command('providers')
    .description("show the realm's payment provider settings (secrets are never shown)")
    .action(async (_o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'BillingService', 'GetPaymentProviderSettings', { realmId: realmOf(g) });
      show(g, res, () => settingsText(res));
    });

  const appStore = cmd.command('app-store').description('App Store Server Notifications V2');
  appStore
    .command('set')
    .description('set the App Store settings; a field not given keeps its stored value')
    .option('--bundle-id <id>', "the app's bundle id")
    .option('--app-apple-id <n>', "the app's Apple id (required for Production)", parseIntArg('--app-apple-id', 1))
    .option('--environment <env>', 'Production or Sandbox (repeatable: both)', collect)
    .action(async (o: { bundleId?: string; appAppleId?: number; environment?: string[] }, c: Command) => {
      const g = globals(c);
      const req: CliRequest<'BillingService', 'SetAppStoreSettings'> = { realmId: realmOf(g), environments: o.environment ?? [] };
      if (o.bundleId !== undefined) req.bundleId = o.bundleId;
      if (o.appAppleId !== undefined) req.appAppleId = o.appAppleId;
      const res = await rpc(g, 'BillingService', 'SetAppStoreSettings', req);
      show(g, res, () => settingsText(res));
    });

  const stripe = cmd.command('stripe').description('Stripe webhooks');
  stripe
    .command('set')
    .description("set the Stripe endpoint's signing secret (whsec_…, write-only)")
    .option('--webhook-secret <secret>', 'the endpoint secret Stripe shows; also GATEHOUSE_STRIPE_WEBHOOK_SECRET')
    .action(async (o: { webhookSecret?: string }, c: Command) => {
      const g = globals(c);
      const req: CliRequest<'BillingService', 'SetStripeSettings'> = { realmId: realmOf(g) };
      const secret = o.webhookSecret ?? process.env.GATEHOUSE_STRIPE_WEBHOOK_SECRET;
      if (secret) req.webhookSecret = secret;
      const res = await rpc(g, 'BillingService', 'SetStripeSettings', req);
      show(g, res, () => settingsText(res));
    });

  const notifications = cmd.command('notifications').description('the notifications payment providers sent');
  notifications
    .command('list')
    .description('newest first')
    .option('--status <status>', 'applied | duplicate | unmatched | ignored')
    .option('--page-size <n>', '1–200 (default 50)', parseIntArg('--page-size', 1))
    .option('--page-token <token>', 'the nextPageToken of the previous page')
    .action(async (o: { status?: string; pageSize?: number; pageToken?: string }, c: Command) => {
      const g = globals(c);
      const req: CliRequest<'BillingService', 'ListBillingNotifications'> = { realmId: realmOf(g), status: o.status ?? '', pageToken: o.pageToken ?? '' };
      if (o.pageSize !== undefined) req.pageSize = o.pageSize;
      const res = await rpc(g, 'BillingService', 'ListBillingNotifications', req);
      show(g, res, () => {
        const rows = (res.notifications ?? []).map((n) => [
          n.notificationId,
          n.paymentProvider,
          n.type,
          n.status,
          n.reason,
          n.userId,
          n.externalProductId,
          n.duplicates,
        ]);
        const t = table(['id', 'provider', 'type', 'status', 'reason', 'user', 'product', 'duplicates'], rows);
        return res.nextPageToken ? `${t}\nnext page: --page-token ${res.nextPageToken}` : t;
      });
    });
  notifications
    .command('replay <notificationId>')
    .description('apply an unmatched notification again (after its mapping or user exists)')
    .action(async (notificationId: string, _o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'BillingService', 'ReplayBillingNotification', { realmId: realmOf(g), notificationId });
      show(g, res, () => record(res));
    });
  return cmd;
}
