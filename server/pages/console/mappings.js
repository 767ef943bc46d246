// /{realm}/manage/billing/entitlement-mappings: mappings by payment provider and product
// (GET /api/bill/{realm}/entitlement-mappings), each price row saved through the batch update
// (PUT …/entitlement-mappings/batch) with its windows in the row's advanced configuration. Turning
// a mapping off asks first; a 409 shows the API's message and its activeSubscriptions count.
import { api, path, query } from './api.js';
import { clearErrors, field, gateForm, h, input, numberOrRaw, openDialog, select, showApiError, showError, uid } from './ui.js';
import { windowsEditor } from './windows-editor.js';

const BILLING_TYPES = ['recurring', 'one_time'];
const BILLING_PERIODS = ['monthly', 'yearly', 'weekly', 'daily'];
const GRANT_PERIODS = ['monthly', 'once', 'daily', 'weekly'];
const FIELD = 'updates[0]';

export async function render(root, ctx) {
  if (!ctx.can('billing.manage')) {
    root.append(h('p', { class: 'needs', dataset: { testid: 'needs' } }, 'This key cannot read or change mappings: needs billing.manage.'));
    return;
  }
  const provider = input({ name: 'paymentProvider' });
  const product = input({ name: 'externalProductId' });
  const filter = h(
    'form',
    { class: 'card', role: 'search' },
    h('h2', {}, 'Filter'),
    h('div', { class: 'grid' }, field('Payment provider', provider), field('Product', product)),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Show')),
  );
  const list = h('div', { dataset: { testid: 'mapping-groups' } });
  const load = async () => {
    clearErrors(filter);
    try {
      const { mappings } = await api.get(
        path`/api/bill/${ctx.realm}/entitlement-mappings` + query({ paymentProvider: provider.value.trim(), externalProductId: product.value.trim() }),
      );
      showGroups(list, ctx, mappings, load);
    } catch (err) {
      showApiError(filter, err, filter.querySelector('button'));
    }
  };
  filter.addEventListener('submit', (event) => {
    event.preventDefault();
    load();
  });
  root.append(filter, newMapping(ctx, load), list);
  await load();
}

/** One card per (provider, product), one row per mapping. */
function showGroups(list, ctx, mappings, reload) {
  const groups = new Map();
  for (const m of mappings) {
    const key = `${m.paymentProvider}\u0000${m.externalProductId}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(m);
  }
  list.replaceChildren(
    ...[...groups.values()].map((rows) =>
      h(
        'section',
        { class: 'card', dataset: { testid: 'mapping-group', provider: rows[0].paymentProvider, product: rows[0].externalProductId } },
        h('h2', {}, `${rows[0].paymentProvider} · ${rows[0].externalProductId}`),
        ...rows.map((m) => mappingForm(ctx, m, reload)),
      ),
    ),
  );
  if (groups.size === 0) list.append(h('p', { class: 'note' }, 'No mappings.'));
}

/** The form of one price row; `mapping` is null for a new one (then provider and product are asked). */
function mappingForm(ctx, mapping, onSaved) {
  const m = mapping ?? {
    billingType: 'recurring',
    billingPeriod: 'monthly',
    grantPeriodType: 'monthly',
    pointsPerPeriod: 0,
    validityDays: 0,
    maxPeriods: 0,
    grantOnSubscribe: true,
    enabled: true,
    quotaWindows: null,
  };
  const named = (name, control) => {
    control.dataset.field = `${FIELD}.${name}`;
    return control;
  };
  const provider = mapping ? null : input({ dataset: { field: 'paymentProvider' } });
  const product = mapping ? null : input({ dataset: { field: 'externalProductId' } });
  const key = named('entitlementKey', input({ value: m.entitlementKey ?? '' }));
  const billingType = named('billingType', select(BILLING_TYPES, m.billingType));
  const billingPeriod = named('billingPeriod', select(BILLING_PERIODS, m.billingPeriod));
  const points = named('pointsPerPeriod', input({ inputmode: 'numeric', value: m.pointsPerPeriod }));
  const grantPeriod = named('grantPeriodType', select(GRANT_PERIODS, m.grantPeriodType));
  const validity = named('validityDays', input({ inputmode: 'numeric', value: m.validityDays }));
  const maxPeriods = named('maxPeriods', input({ inputmode: 'numeric', value: m.maxPeriods }));
  const onSubscribe = named('grantOnSubscribe', h('input', { type: 'checkbox', checked: m.grantOnSubscribe }));
  const enabled = named('enabled', h('input', { type: 'checkbox', checked: m.enabled }));
  const editor = windowsEditor({
    windows: m.quotaWindows,
    prefix: `${FIELD}.quotaWindows`,
    label: 'Subscription quota windows',
    disabled: !ctx.can('billing.manage'),
  });
  const save = h('button', { type: 'submit' }, mapping ? 'Save' : 'Create');
  const check = (label, control) => {
    control.id = uid('check');
    return h('div', { class: 'field check' }, control, h('label', { for: control.id }, label));
  };
  const form = h(
    'form',
    { class: 'mapping', novalidate: true, dataset: { testid: 'mapping', mappingId: mapping?.mappingId ?? '' } },
    mapping ? h('h3', {}, m.entitlementKey || '(no key)', h('span', { class: 'muted' }, ` · ${m.mappingId}`)) : null,
    h(
      'div',
      { class: 'grid' },
      provider ? field('Payment provider', provider) : null,
      product ? field('Product', product) : null,
      field('Entitlement key', key),
      field('Billing type', billingType),
      field('Billing period', billingPeriod),
      field('Points per period', points),
      field('Grant period', grantPeriod),
      field('Validity (days)', validity, '0 = never expires.'),
      field('Max periods', maxPeriods, '0 = unlimited.'),
    ),
    check('Grant on subscribe', onSubscribe),
    check('Enabled', enabled),
    mapping ? h('p', { class: 'note', dataset: { testid: 'active-subscriptions' } }, `Active subscriptions: ${m.activeSubscriptions}`) : null,
    h('details', {}, h('summary', {}, 'Advanced configuration'), editor.element),
    h('div', { class: 'actions' }, save),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const update = {
      entitlementKey: key.value,
      billingType: billingType.value,
      billingPeriod: billingPeriod.value,
      pointsPerPeriod: numberOrRaw(points.value),
      grantPeriodType: grantPeriod.value,
      validityDays: numberOrRaw(validity.value),
      grantOnSubscribe: onSubscribe.checked,
      maxPeriods: numberOrRaw(maxPeriods.value),
      enabled: enabled.checked,
      quotaWindows: editor.value(),
    };
    if (mapping) update.mappingId = mapping.mappingId;
    const disabling = mapping?.enabled && !enabled.checked;
    if (disabling) {
      const go = await openDialog({
        title: 'Disable this mapping?',
        body: [
          h('p', {}, `${m.paymentProvider} · ${m.externalProductId} · ${m.entitlementKey}`),
          h('p', {}, 'New subscriptions to it will no longer grant anything. The update is refused while the mapping has active subscriptions.'),
        ],
        confirmLabel: 'Disable',
        danger: true,
      });
      if (!go) return;
    }
    save.disabled = true;
    try {
      const body = {
        paymentProvider: mapping ? mapping.paymentProvider : provider.value.trim(),
        externalProductId: mapping ? mapping.externalProductId : product.value.trim(),
        updates: [update],
      };
      await api.put(path`/api/bill/${ctx.realm}/entitlement-mappings/batch`, body);
      await ctx.statusAfter(onSaved(), mapping ? 'Mapping saved.' : 'Mapping created.');
    } catch (err) {
      ctx.status('');
      if (err.body?.error === 'mapping_in_use') {
        showError(enabled, `${err.message} (activeSubscriptions: ${err.body.activeSubscriptions})`).dataset.testid = 'mapping-in-use';
        enabled.focus();
      } else {
        const details = form.querySelector('details');
        if (String(err.body?.field ?? '').includes('quotaWindows')) details.open = true;
        showApiError(form, err, save);
      }
    } finally {
      save.disabled = false;
    }
  });
  return gateForm(form, ctx, 'billing.manage');
}

function newMapping(ctx, reload) {
  const details = h('details', { class: 'card', dataset: { testid: 'new-mapping' } }, h('summary', {}, 'New mapping'));
  const fill = () => {
    details.querySelector('form')?.remove();
    details.append(
      mappingForm(ctx, null, async () => {
        await reload();
        fill();
      }),
    );
  };
  fill();
  return details;
}
