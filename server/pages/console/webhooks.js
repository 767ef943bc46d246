// /{realm}/manage/webhooks: endpoints (docs/events.md) with their deliveries and attempts; create,
// enable or disable, rotate the secret (shown once), delete, send a test event, redeliver.
import { api, path, query } from './api.js';
import { clearErrors, field, h, input, openDialog, pager, select, showApiError, tableOf, time } from './ui.js';

const STATUSES = ['', 'pending', 'running', 'delivered', 'failed'];

export async function render(root, ctx) {
  if (!ctx.can('webhooks.manage')) {
    root.append(h('p', { class: 'needs', dataset: { testid: 'needs' } }, 'This key cannot read or change webhooks: needs webhooks.manage.'));
    return;
  }
  const secretBox = h('div', { 'aria-live': 'polite' });
  const list = h('div', { dataset: { testid: 'webhooks' } });
  const base = path`/api/admin/realms/${ctx.realm}/webhooks`;
  const load = async () => {
    const { webhooks } = await api.get(base);
    list.replaceChildren(...webhooks.map((w) => endpoint(ctx, base, w, load, secretBox)));
    if (webhooks.length === 0) list.append(h('p', { class: 'note' }, 'No endpoints.'));
  };
  root.append(createForm(ctx, base, load, secretBox), secretBox, list);
  await load();
}

/** A secret is shown once, in its own box, as text. */
function showSecret(box, webhook) {
  box.replaceChildren(
    h(
      'div',
      { class: 'card', dataset: { testid: 'secret' } },
      h('p', {}, `Signing secret of ${webhook.url} (shown once; store it now):`),
      h('p', { class: 'secret' }, webhook.secret),
    ),
  );
}

function createForm(ctx, base, reload, secretBox) {
  const url = input({ type: 'url', dataset: { field: 'url' } });
  const types = input({ value: '*', dataset: { field: 'eventTypes' } });
  const description = input({ dataset: { field: 'description' } });
  const submit = h('button', { type: 'submit' }, 'Add endpoint');
  const form = h(
    'form',
    { class: 'card', novalidate: true, dataset: { testid: 'new-webhook' } },
    h('h2', {}, 'New endpoint'),
    h('div', { class: 'grid' }, field('URL', url), field('Event types', types, 'Comma-separated, or * for every one.'), field('Description', description)),
    h('div', { class: 'actions' }, submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const eventTypes = types.value
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    try {
      const created = await api.post(base, { url: url.value.trim(), eventTypes, description: description.value });
      showSecret(secretBox, created);
      url.value = '';
      description.value = '';
      await ctx.statusAfter(reload(), 'Endpoint added.');
    } catch (err) {
      showApiError(form, err, submit);
    }
  });
  return form;
}

function endpoint(ctx, base, w, reload, secretBox) {
  const url = path`${w.id}`;
  const deliveries = h('div');
  const errorSpot = h('div', { class: 'actions' });
  const act = (label, run, attrs = {}) =>
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        ...attrs,
        onclick: async (event) => {
          clearErrors(card);
          try {
            await run();
          } catch (err) {
            showApiError(card, err, event.currentTarget ?? errorSpot);
          }
        },
      },
      label,
    );
  const card = h(
    'section',
    { class: 'card', dataset: { testid: 'webhook', webhookId: w.id } },
    h('h2', {}, w.url),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Id'),
      h('dd', {}, w.id),
      h('dt', {}, 'Events'),
      h('dd', {}, w.eventTypes.join(', ')),
      h('dt', {}, 'Enabled'),
      h('dd', { dataset: { testid: 'enabled' } }, w.enabled ? 'yes' : 'no'),
      w.description ? [h('dt', {}, 'Description'), h('dd', {}, w.description)] : null,
      h('dt', {}, 'Created'),
      h('dd', {}, time(w.createdAt)),
    ),
    h(
      'div',
      { class: 'actions' },
      act('Send test event', async () => {
        await api.post(`${base}/${url}/test`, {});
        await ctx.statusAfter(deliveries.reload(), 'Test event queued.');
      }),
      act(w.enabled ? 'Disable' : 'Enable', async () => {
        await api.patch(`${base}/${url}`, { enabled: !w.enabled });
        await ctx.statusAfter(reload(), w.enabled ? 'Endpoint disabled.' : 'Endpoint enabled.');
      }),
      act('Rotate secret…', async () => {
        const rotated = await openDialog({
          title: 'Rotate the signing secret?',
          body: [h('p', {}, 'A new secret signs from now on; the old one also signs for 24 hours.')],
          confirmLabel: 'Rotate',
          onConfirm: () => api.post(`${base}/${url}/rotate-secret`, {}),
        });
        if (rotated) showSecret(secretBox, rotated);
      }),
      act(
        'Delete…',
        async () => {
          const gone = await openDialog({
            title: 'Delete this endpoint?',
            body: [h('p', {}, w.url)],
            confirmLabel: 'Delete',
            danger: true,
            onConfirm: () => api.delete(`${base}/${url}`),
          });
          if (!gone) return;
          await ctx.statusAfter(reload(), 'Endpoint deleted.');
        },
        { class: 'danger' },
      ),
    ),
    errorSpot,
    deliveries,
  );
  showDeliveries(deliveries, ctx, `${base}/${url}/deliveries`);
  return card;
}

function showDeliveries(box, ctx, base) {
  const status = select(STATUSES, '', { 'aria-label': 'Delivery status' });
  status.options[0].textContent = 'every status';
  const rows = h('div');
  const refresh = h('button', { type: 'button', class: 'secondary' }, 'Refresh');
  const pages = pager(async (pageToken) => {
    const page = await api.get(base + query({ status: status.value, pageSize: 20, pageToken }));
    rows.replaceChildren(
      tableOf(
        'Deliveries',
        ['Created', 'Event', 'Status', 'Attempts', ''],
        page.deliveries,
        (d) => delivery(ctx, box, `${base}/${path`${d.id}`}/redeliver`, d, () => pages.load()),
        'No deliveries.',
      ),
    );
    return page;
  });
  status.addEventListener('change', () => pages.first());
  refresh.addEventListener('click', () => pages.load());
  box.reload = () => pages.first();
  box.append(h('h3', {}, 'Deliveries'), h('div', { class: 'actions' }, status, refresh), rows, pages.controls);
  pages.load().catch((err) => showApiError(box, err, refresh));
}

/** One delivery's row: its attempts (time, HTTP status or error, milliseconds) and Redeliver. */
function delivery(ctx, box, redeliverUrl, d, reload) {
  const redeliver = h('button', { type: 'button', class: 'secondary' }, 'Redeliver');
  redeliver.addEventListener('click', async () => {
    clearErrors(box);
    try {
      await api.post(redeliverUrl, {});
      await ctx.statusAfter(reload(), 'Redelivery queued.');
    } catch (err) {
      showApiError(box, err, redeliver);
    }
  });
  return h(
    'tr',
    { dataset: { testid: 'delivery', status: d.status, eventType: d.eventType } },
    h('td', {}, time(d.createdAt)),
    h('td', {}, d.eventType, h('br'), h('span', { class: 'muted' }, d.eventId)),
    h('td', { dataset: { testid: 'delivery-status' } }, d.status),
    h(
      'td',
      {},
      h(
        'ul',
        { class: 'attempts' },
        ...d.attempts.map((a) =>
          h('li', { dataset: { testid: 'attempt' } }, time(a.at), ` · ${a.httpStatus ? `HTTP ${a.httpStatus}` : a.error} · ${a.durationMs} ms`),
        ),
      ),
    ),
    h('td', {}, redeliver),
  );
}
