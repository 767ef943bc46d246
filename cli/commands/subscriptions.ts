// gatehouse subscriptions: what a payment provider's webhook would do — activate a subscription
// (granting its mapping's entitlement) and cancel it (ending the entitlement).
import { Command } from 'commander';
import { type CliRequest, globals, realmOf, rpc, show } from '../context.ts';
import { record } from '../output.ts';

export function subscriptionsCommand(): Command {
  const cmd = new Command('subscriptions').description('subscriptions: activate and cancel');

  cmd
    .command('create')
    .description("activate a subscription and grant its mapping's entitlement")
    .requiredOption('--user <id>', 'user id')
    .requiredOption('--mapping <id>', 'entitlement mapping id')
    .option('--external-id <id>', "the payment provider's subscription id (a repeat answers the same subscription)")
    .action(async (o: { user: string; mapping: string; externalId?: string }, c: Command) => {
      const g = globals(c);
      const req: CliRequest<'BillingService', 'CreateSubscription'> = { realmId: realmOf(g), userId: o.user, mappingId: o.mapping };
      if (o.externalId) req.externalSubscriptionId = o.externalId;
      const res = await rpc(g, 'BillingService', 'CreateSubscription', req);
      show(g, res, () => record(res));
    });

  cmd
    .command('cancel <subscriptionId>')
    .description('cancel a subscription and end its entitlement')
    .action(async (subscriptionId: string, _o: object, c: Command) => {
      const g = globals(c);
      const res = await rpc(g, 'BillingService', 'CancelSubscription', { realmId: realmOf(g), subscriptionId });
      show(g, res, () => record(res));
    });
  return cmd;
}
