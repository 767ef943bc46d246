// gatehouse mappings: entitlement mappings (the console page /manage/billing/entitlement-mappings):
// list, apply a batch from a file (scripts), edit one mapping's windows interactively.
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { moduleLoader } from '../../server/lib/load-module.ts';
import { type CliAnswer, type CliRequest, type Globals, globals, realmOf, rpc, show } from '../context.ts';
import { CliError, table, usageError } from '../output.ts';
import { canPrompt, confirmOrFail } from '../prompts.ts';
import type { Window } from '../window-editor.ts';

// Loaded when first needed (server/lib/load-module.ts).
const load = moduleLoader(import.meta.url);

type Mapping = CliAnswer<'BillingService', 'ListEntitlementMappings'>['mappings'][number];
type Batch = CliRequest<'BillingService', 'BatchUpdateEntitlementMappings'>;

/** The mappings as a table. The window helpers load here, not at start, so `--help` stays fast. */
export async function mappingsTable(rows: Mapping[]): Promise<string> {
  const { windowsText } = await load<typeof import('../window-text.ts')>('../window-text.ts');
  return table(
    ['MAPPING', 'PROVIDER', 'PRODUCT', 'KEY', 'ENABLED', 'POINTS', 'PERIOD', 'WINDOWS', 'ACTIVE SUBS'],
    rows.map((m) => [
      m.mappingId,
      m.paymentProvider,
      m.externalProductId,
      m.entitlementKey,
      m.enabled,
      m.pointsPerPeriod,
      m.grantPeriodType,
      m.quotaWindows === null ? '-' : windowsText(m.quotaWindows as Window[]),
      m.activeSubscriptions,
    ]),
  );
}

async function listMappings(g: Globals, filter: { paymentProvider?: string; externalProductId?: string } = {}): Promise<Mapping[]> {
  const res = await rpc(g, 'BillingService', 'ListEntitlementMappings', {
    realmId: realmOf(g),
    paymentProvider: filter.paymentProvider ?? '',
    externalProductId: filter.externalProductId ?? '',
  });
  return res.mappings;
}

const inUseMessage = (mappingId: unknown, entitlementKey: unknown, n: unknown) =>
  `mapping ${mappingId}${entitlementKey ? ` (${entitlementKey})` : ''} has ${n ?? 'some'} active subscription(s) and cannot be disabled while they last; nothing saved`;

/** Sends a batch. A disabling the server would refuse (the mapping has active subscriptions, which
 *  the listing shows) is refused here without a question; any other disabling is confirmed first.
 *  A 409 that still comes (a subscription started meanwhile) names the mapping the same way. */
async function sendBatch(g: Globals, batch: Batch, yes: boolean | undefined): Promise<void> {
  const existing = await listMappings(g);
  const updates = batch.updates ?? [];
  const disabling = updates
    .filter((u) => u.enabled === false && typeof u.mappingId === 'string')
    .map((u) => existing.find((x) => x.mappingId === u.mappingId))
    .filter((m): m is Mapping => Boolean(m?.enabled));
  const inUse = disabling.find((m) => m.activeSubscriptions > 0);
  if (inUse) {
    throw new CliError(inUseMessage(inUse.mappingId, inUse.entitlementKey, inUse.activeSubscriptions), 1, 'mapping_in_use', {
      status: 409,
      mappingId: inUse.mappingId,
      activeSubscriptions: inUse.activeSubscriptions,
    });
  }
  for (const m of disabling) await confirmOrFail(`Disable mapping ${m.mappingId} (${m.entitlementKey}, no active subscriptions)?`, yes);
  try {
    const res = await rpc(g, 'BillingService', 'BatchUpdateEntitlementMappings', { ...batch, realmId: realmOf(g) });
    const text = g.json ? '' : await mappingsTable(res.mappings);
    show(g, res, () => `saved ${res.saved} mapping(s)\n${text}`);
  } catch (e) {
    if (e instanceof CliError && e.code === 'mapping_in_use') {
      const m = existing.find((x) => x.mappingId === e.extra.mappingId);
      throw new CliError(inUseMessage(e.extra.mappingId, m?.entitlementKey, e.extra.activeSubscriptions), 1, e.code, e.extra);
    }
    throw e;
  }
}

export function mappingsCommand(): Command {
  const cmd = new Command('mappings').description('entitlement mappings: what a payment provider product grants its subscribers');

  cmd
    .command('list')
    .description('list mappings')
    .option('--payment-provider <name>', 'only this payment provider')
    .option('--product <id>', 'only this external product id')
    .action(async (o: { paymentProvider?: string; product?: string }, c: Command) => {
      const g = globals(c);
      const rows = await listMappings(g, { paymentProvider: o.paymentProvider, externalProductId: o.product });
      const text = g.json || !rows.length ? 'no mappings' : await mappingsTable(rows);
      show(g, { mappings: rows }, () => text);
    });

  cmd
    .command('apply')
    .description('apply a batch file: {"paymentProvider", "externalProductId", "updates": [...]} as the HTTP API takes it')
    .requiredOption('--file <path>', 'the batch, JSON (- for stdin)')
    .option('--yes', 'confirm disabling mappings without asking')
    .action(async (o: { file: string; yes?: boolean }, c: Command) => {
      const g = globals(c);
      let text: string;
      try {
        text = readFileSync(o.file === '-' ? 0 : o.file, 'utf8');
      } catch (e) {
        throw usageError(`--file: ${(e as Error).message}`);
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw usageError(`--file: ${o.file} is not valid JSON`);
      }
      // The same strict mapping the HTTP adapter applies: unknown fields and wrong types name the field.
      const { messageFromJson } = await load<typeof import('../../server/rpc/json.ts')>('../../server/rpc/json.ts');
      const { loadProtos } = await load<typeof import('../../server/rpc/proto.ts')>('../../server/rpc/proto.ts');
      const type = loadProtos().root.lookupType('gatehouse.v1.BatchUpdateEntitlementMappingsRequest');
      let batch: Batch;
      try {
        batch = messageFromJson(type, json) as Batch;
      } catch (e) {
        throw usageError(`--file: ${(e as Error).message}`);
      }
      await sendBatch(g, batch, o.yes);
    });

  cmd
    .command('edit <mappingId>')
    .description("edit one mapping's quota windows interactively, with a preview before saving")
    .action(async (mappingId: string, _o: object, c: Command) => {
      const g = globals(c);
      if (!canPrompt()) throw usageError('edit needs a terminal; in scripts use `mappings apply --file batch.json`');
      const m = (await listMappings(g)).find((x) => x.mappingId === mappingId);
      if (!m) throw new CliError(`mapping ${mappingId} not found in realm ${realmOf(g)}`, 1, 'not_found');
      const { editWindows } = await load<typeof import('../window-editor.ts')>('../window-editor.ts');
      const { windowRules } = await load<typeof import('../window-rules.ts')>('../window-rules.ts');
      const after = await editWindows(
        `Quota windows of mapping ${m.mappingId} (${m.entitlementKey})`,
        (m.quotaWindows as Window[] | null) ?? [],
        windowRules('quotaWindows'),
      );
      if (after === null) {
        process.stderr.write('cancelled; nothing saved\n');
        return;
      }
      await sendBatch(
        g,
        { paymentProvider: m.paymentProvider, externalProductId: m.externalProductId, updates: [{ mappingId, quotaWindows: { windows: after } }] },
        true,
      );
    });
  return cmd;
}
