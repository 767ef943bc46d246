// gatehouse mappings: entitlement mappings (the console page /manage/billing/entitlement-mappings):
// list, apply a batch from a file (scripts), edit one mapping's windows interactively.
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { globals, realmOf, rpc, show, type Globals } from '../context.ts';
import { CliError, table, usageError } from '../output.ts';
import { canPrompt, confirmOrFail } from '../prompts.ts';
import { formatDuration } from '../duration.ts';
import type { Window } from '../window-editor.ts';

type Mapping = Record<string, unknown> & { mappingId: string; enabled: boolean; entitlementKey: string; quotaWindows: Window[] | null };

const windowsText = (w: Window[] | null) => (w === null ? '-' : w.length === 0 ? 'none' : w.map((x) => `${formatDuration(x.windowSeconds)}=${x.limit}`).join(' '));

export function mappingsTable(rows: Mapping[]): string {
  return table(
    ['MAPPING', 'PROVIDER', 'PRODUCT', 'KEY', 'ENABLED', 'POINTS', 'PERIOD', 'WINDOWS', 'ACTIVE SUBS'],
    rows.map((m) => [m.mappingId, m.paymentProvider as string, m.externalProductId as string, m.entitlementKey, m.enabled, m.pointsPerPeriod as number, m.grantPeriodType as string, windowsText(m.quotaWindows), m.activeSubscriptions as number]),
  );
}

async function listMappings(g: Globals, filter: { paymentProvider?: string; externalProductId?: string } = {}): Promise<Mapping[]> {
  const res = await rpc(g, 'BillingService', 'ListEntitlementMappings', { realmId: realmOf(g), paymentProvider: filter.paymentProvider ?? '', externalProductId: filter.externalProductId ?? '' });
  return res.mappings as Mapping[];
}

/** Sends a batch; a 409 says which mapping is blocked, by how many subscriptions, and that nothing was saved. */
async function sendBatch(g: Globals, batch: Record<string, unknown>, yes: boolean | undefined): Promise<void> {
  const existing = await listMappings(g);
  const updates = (batch.updates as Array<Record<string, unknown>>) ?? [];
  for (const u of updates) {
    if (u.enabled !== false || typeof u.mappingId !== 'string') continue;
    const m = existing.find((x) => x.mappingId === u.mappingId);
    if (m?.enabled) await confirmOrFail(`Disable mapping ${m.mappingId} (${m.entitlementKey}, ${m.activeSubscriptions} active subscription(s))?`, yes);
  }
  try {
    const res = await rpc(g, 'BillingService', 'BatchUpdateEntitlementMappings', { ...batch, realmId: realmOf(g) });
    show(g, res, () => `saved ${res.saved} mapping(s)\n${mappingsTable(res.mappings as Mapping[])}`);
  } catch (e) {
    if (e instanceof CliError && e.code === 'mapping_in_use') {
      const n = e.extra.activeSubscriptions ?? '?';
      throw new CliError(`mapping ${e.extra.mappingId} has ${n} active subscription(s) and cannot be disabled while they last; nothing of the batch was saved`, 1, e.code, e.extra);
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
      show(g, { mappings: rows }, () => (rows.length ? mappingsTable(rows) : 'no mappings'));
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
      const { messageFromJson } = await import('../../server/gateway/json.ts');
      const { loadProtos } = await import('../../server/rpc/proto.ts');
      const type = loadProtos().root.lookupType('gatehouse.v1.BatchUpdateEntitlementMappingsRequest');
      let batch: Record<string, unknown>;
      try {
        batch = messageFromJson(type, json);
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
      const { editWindows } = await import('../window-editor.ts');
      const { windowRules } = await import('../window-rules.ts');
      const after = await editWindows(`Quota windows of mapping ${m.mappingId} (${m.entitlementKey})`, m.quotaWindows ?? [], windowRules('quotaWindows'));
      if (after === null) {
        process.stderr.write('cancelled; nothing was saved\n');
        return;
      }
      await sendBatch(g, { paymentProvider: m.paymentProvider, externalProductId: m.externalProductId, updates: [{ mappingId, quotaWindows: { windows: after } }] }, true);
    });
  return cmd;
}
