// /{realm}/manage/points/default-config: the realm default points configuration (GET/PUT
// /api/points/{realm}/default-config) with its multi-window editor.
import { api, path } from './api.js';
import { clearErrors, field, gateForm, h, input, numberOrRaw, select, showApiError, time } from './ui.js';
import { windowsEditor } from './windows-editor.js';

const PERIODS = ['once', 'daily', 'weekly', 'monthly'];

export async function render(root, ctx) {
  if (!ctx.can('settings.view')) {
    root.append(h('p', { class: 'needs', dataset: { testid: 'needs' } }, 'This key cannot read the default configuration: needs settings.view.'));
    return;
  }
  const url = path`/api/points/${ctx.realm}/default-config`;
  show(root, ctx, url, await api.get(url));
}

function show(root, ctx, url, config) {
  const number = (name, value) => input({ inputmode: 'numeric', name, value, dataset: { field: name } });
  const bonus = number('registrationBonusPoints', config.registrationBonusPoints);
  const amount = number('freePeriodicPointsAmount', config.freePeriodicPointsAmount);
  const period = select(PERIODS, config.freePeriodicGrantPeriodType, {
    name: 'freePeriodicGrantPeriodType',
    dataset: { field: 'freePeriodicGrantPeriodType' },
  });
  const validity = number('freePeriodicValidityDays', config.freePeriodicValidityDays);
  const editor = windowsEditor({
    windows: config.freePeriodicQuotaWindows,
    prefix: 'freePeriodicQuotaWindows',
    label: 'Free periodic quota windows',
    disabled: !ctx.can('settings.manage'),
  });
  const save = h('button', { type: 'submit' }, 'Save');
  const form = h(
    'form',
    { class: 'card', dataset: { testid: 'default-config' }, novalidate: true },
    field('Registration bonus (points)', bonus, 'Given once to a new user; never expires.'),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Free periodic grant'),
      field('Amount (points)', amount),
      field('Period', period),
      field('Validity (days)', validity, '0 = never expires.'),
    ),
    editor.element,
    h('p', { class: 'note' }, 'A change applies to grants made afterwards; active entitlements keep the windows they were granted with.'),
    h('div', { class: 'actions' }, save),
    h('p', { class: 'note' }, 'Last saved: ', time(config.updatedAt)),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const body = {
      registrationBonusPoints: numberOrRaw(bonus.value),
      freePeriodicPointsAmount: numberOrRaw(amount.value),
      freePeriodicGrantPeriodType: period.value,
      freePeriodicValidityDays: numberOrRaw(validity.value),
      freePeriodicQuotaWindows: editor.value(),
    };
    save.disabled = true;
    try {
      const saved = await api.put(url, body);
      show(root, ctx, url, saved);
      ctx.status('Saved.');
    } catch (err) {
      ctx.status('');
      showApiError(form, err, save);
    } finally {
      save.disabled = false;
    }
  });
  root.replaceChildren(gateForm(form, ctx, 'settings.manage'));
}
