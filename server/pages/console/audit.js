// /{realm}/manage/audit: the audit log (docs/events.md), newest first, filtered by action, target,
// actor and time, a page at a time.
import { api, path, query } from './api.js';
import { clearErrors, field, h, input, pager, showApiError, tableOf, time } from './ui.js';

export async function render(root, ctx) {
  if (!ctx.can('audit.view')) {
    root.append(h('p', { class: 'needs', dataset: { testid: 'needs' } }, 'This key cannot read the audit log: needs audit.view.'));
    return;
  }
  const action = input({ dataset: { field: 'action' } });
  const target = input({ dataset: { field: 'targetId' } });
  const actor = input({ dataset: { field: 'actorId' } });
  const since = h('input', { type: 'datetime-local', dataset: { field: 'since' } });
  const until = h('input', { type: 'datetime-local', dataset: { field: 'until' } });
  const show = h('button', { type: 'submit' }, 'Show');
  const form = h(
    'form',
    { class: 'card', role: 'search', novalidate: true },
    h('h2', {}, 'Filters'),
    h(
      'div',
      { class: 'grid' },
      field('Action', action, 'e.g. points.grant'),
      field('Target id', target),
      field('Actor id', actor),
      field('Since', since),
      field('Until', until),
    ),
    h('div', { class: 'actions' }, show),
  );
  const rows = h('div', { dataset: { testid: 'audit' } });
  const iso = (el) => (el.value ? new Date(el.value).toISOString() : '');
  const pages = pager(async (pageToken) => {
    const filters = { action: action.value.trim(), targetId: target.value.trim(), actorId: actor.value.trim(), since: iso(since), until: iso(until) };
    const page = await api.get(path`/api/admin/realms/${ctx.realm}/audit` + query({ ...filters, pageSize: 25, pageToken }));
    rows.replaceChildren(
      tableOf(
        'Audit records',
        ['When', 'Action', 'Actor', 'Target', 'Changes', 'Request'],
        page.records,
        (r) =>
          h(
            'tr',
            { dataset: { testid: 'record', action: r.action } },
            h('td', {}, time(r.at)),
            h('td', {}, r.action),
            h('td', {}, `${r.actor?.type ?? ''} ${r.actor?.id ?? ''}`),
            h('td', {}, r.targetId),
            h('td', {}, h('pre', { class: 'changes' }, changes(r.changesJson))),
            h('td', {}, r.requestId),
          ),
        'No records.',
      ),
    );
    return page;
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    try {
      await pages.first();
    } catch (err) {
      showApiError(form, err, show);
    }
  });
  root.append(form, rows, pages.controls);
  await pages.load();
}

/** `{field: {before, after}}` as lines of text. */
function changes(json) {
  try {
    const parsed = JSON.parse(json || '{}');
    return Object.entries(parsed)
      .map(([name, c]) => `${name}: ${JSON.stringify(c?.before)} → ${JSON.stringify(c?.after)}`)
      .join('\n');
  } catch {
    return json;
  }
}
