// /{realm}/manage/users: find a user by id or email, then their points summary (every window's
// used, remaining and recovery), open holds, history pages; grant, refund, release and delete,
// each asking first. Every figure is the API's (docs/console.md).
import { ApiError, api, path, query } from './api.js';
import { clearErrors, field, gate, gateForm, h, input, number, numberOrRaw, openDialog, pager, select, showApiError, showError, tableOf, time } from './ui.js';

const KINDS = ['', 'consume', 'grant', 'hold', 'settle', 'release', 'refund', 'expire'];
const PAGE_SIZE = 20;

export async function render(root, ctx) {
  const who = input({ name: 'user', dataset: { field: 'user' } });
  const find = h('button', { type: 'submit' }, 'Find');
  const form = h(
    'form',
    { class: 'card', role: 'search', novalidate: true },
    field(
      'User id or email',
      who,
      ctx.can('users.manage') ? 'An email finds the user with exactly that address.' : 'Finding by email needs users.manage; an id still works.',
    ),
    h('div', { class: 'actions' }, find),
  );
  const view = h('div', { dataset: { testid: 'user-view' } });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    view.replaceChildren();
    const text = who.value.trim();
    if (!text) return showError(who, 'Enter a user id or an email');
    try {
      const user = await findUser(ctx, text);
      if (!user) return showError(who, `No user with the email ${text}`);
      await showUser(view, ctx, user);
    } catch (err) {
      showError(who, err.message);
      who.focus();
    }
  });
  root.append(form, view);
}

/** The user an id or an email names (null when no user has that email). */
async function findUser(ctx, text) {
  if (text.includes('@')) {
    if (!ctx.can('users.manage')) throw new ApiError(403, { message: 'Finding by email needs the users.manage permission' });
    const { users } = await api.get(path`/api/admin/realms/${ctx.realm}/users` + query({ email: text }));
    return users[0] ?? null;
  }
  if (ctx.can('users.manage')) return api.get(path`/api/admin/realms/${ctx.realm}/users/${text}`);
  // Without users.manage the profile stays hidden; the points calls still name the user.
  return { id: text };
}

async function showUser(view, ctx, user) {
  const profile = h(
    'section',
    { class: 'card', dataset: { testid: 'profile' } },
    h('h2', {}, user.email || user.id),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'User id'),
      h('dd', { dataset: { testid: 'user-id' } }, user.id),
      user.email !== undefined ? [h('dt', {}, 'Email'), h('dd', {}, user.email || '—')] : null,
      user.createdAt ? [h('dt', {}, 'Created'), h('dd', {}, time(user.createdAt))] : null,
      user.identities ? [h('dt', {}, 'Identities'), h('dd', {}, user.identities.map((i) => `${i.provider} ${i.subject}`).join(', ') || '—')] : null,
    ),
    h(
      'div',
      { class: 'actions' },
      gate(h('button', { type: 'button', class: 'danger', onclick: () => deleteUser(view, ctx, user) }, 'Delete user…'), ctx, 'users.manage'),
    ),
  );
  const summary = h('div');
  const history = h('div');
  const refresh = async () => {
    await Promise.all([showSummary(summary, ctx, user.id, refresh), history.reload?.()]);
  };
  view.replaceChildren(profile, summary, grantForm(ctx, user.id, refresh), history);
  if (!ctx.can('points.view')) {
    summary.append(h('p', { class: 'needs', dataset: { testid: 'needs' } }, 'Points: needs points.view.'));
    return;
  }
  showHistory(history, ctx, user.id, refresh);
  await refresh();
}

async function showSummary(box, ctx, userId, refresh) {
  const s = await api.get(path`/api/points/${ctx.realm}/users/${userId}/summary`);
  const b = s.balances;
  const windowRow = (w) =>
    h(
      'tr',
      { dataset: { testid: 'window', kind: w.creditKind, key: w.key } },
      h('td', {}, w.creditKind),
      h('td', {}, w.key, w.isTightest ? h('span', { class: 'muted' }, ' (tightest)') : null),
      h('td', { class: 'num', dataset: { testid: 'limit' } }, number(w.limit)),
      h('td', { class: 'num', dataset: { testid: 'used' } }, number(w.used)),
      h('td', { class: 'num', dataset: { testid: 'remaining' } }, number(w.remaining)),
      h('td', {}, time(w.nextRecoveryAt)),
      h('td', {}, time(w.resetsAt)),
    );
  const holdRow = (hold) =>
    h(
      'tr',
      { dataset: { testid: 'hold', holdId: hold.holdId } },
      h('td', {}, hold.holdId),
      h('td', { class: 'num' }, number(hold.amount)),
      h('td', {}, time(hold.expiresAt)),
      h('td', {}, gate(h('button', { type: 'button', class: 'secondary', onclick: () => release(ctx, hold, refresh) }, 'Release…'), ctx, 'points.consume')),
    );
  box.replaceChildren(
    h(
      'section',
      { class: 'card', dataset: { testid: 'summary' } },
      h('h2', {}, 'Points'),
      h(
        'dl',
        { class: 'facts' },
        ...[
          ['Total spendable', s.total, 'total'],
          ['From window quota', s.spendableFromQuota, 'from-quota'],
          ['From balances', s.spendableFromPool, 'from-pool'],
          ['Held', s.held, 'held'],
          ['Top-up', b.topup, 'topup'],
          ['Granted', b.granted, 'granted'],
          ['Registration', b.registration, 'registration'],
          ['Subscription (fixed)', b.subscription, 'subscription'],
          ['Free periodic (fixed)', b.freePeriodic, 'free-periodic'],
        ].flatMap(([label, value, id]) => [h('dt', {}, label), h('dd', { dataset: { testid: id } }, number(value))]),
      ),
      h('h3', {}, 'Windows'),
      tableOf('Windows', ['Kind', 'Window', 'Limit', 'Used', 'Remaining', 'Next recovery', 'All back'], s.windows, windowRow, 'No window entitlement.'),
      h('h3', {}, `Open holds (${s.holdCount})`),
      tableOf('Open holds', ['Hold', 'Amount', 'Expires', ''], s.holds, holdRow, 'None.'),
    ),
  );
}

function grantForm(ctx, userId, refresh) {
  const kind = select(['granted_credit', 'topup_credit'], 'granted_credit', { dataset: { field: 'kind' } });
  const amount = input({ inputmode: 'numeric', dataset: { field: 'amount' } });
  const expires = h('input', { type: 'datetime-local', dataset: { field: 'expiresAt' } });
  const submit = h('button', { type: 'submit' }, 'Grant');
  const form = h(
    'form',
    { class: 'card', novalidate: true, dataset: { testid: 'grant' } },
    h('h2', {}, 'Grant points'),
    h('div', { class: 'grid' }, field('Kind', kind), field('Amount', amount), field('Expires (optional)', expires, 'Empty = never.')),
    h('div', { class: 'actions' }, submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const body = { kind: kind.value, amount: numberOrRaw(amount.value) };
    if (expires.value) body.expiresAt = new Date(expires.value).toISOString();
    submit.disabled = true;
    try {
      await api.post(path`/api/points/${ctx.realm}/users/${userId}/grants`, body);
      amount.value = '';
      await ctx.statusAfter(refresh(), `Granted ${number(body.amount)} points.`);
    } catch (err) {
      showApiError(form, err, submit);
    } finally {
      submit.disabled = false;
    }
  });
  return gateForm(form, ctx, 'points.manage');
}

function showHistory(box, ctx, userId, refresh) {
  const kind = select(KINDS, '', { 'aria-label': 'Kind' });
  kind.options[0].textContent = 'every kind';
  const rows = h('div');
  const pages = pager(async (pageToken) => {
    const page = await api.get(path`/api/points/${ctx.realm}/users/${userId}/transactions` + query({ pageSize: PAGE_SIZE, pageToken, kind: kind.value }));
    rows.replaceChildren(
      tableOf(
        'History',
        ['When', 'Kind', 'Amount', 'Description', 'Id', ''],
        page.transactions,
        (t) =>
          h(
            'tr',
            { dataset: { testid: 'transaction', kind: t.kind, transactionId: t.transactionId } },
            h('td', {}, time(t.createdAt)),
            h('td', {}, t.kind),
            h('td', { class: 'num' }, number(t.amount)),
            h('td', { dataset: { testid: 'description' } }, t.description ?? ''),
            h('td', {}, t.transactionId),
            h(
              'td',
              {},
              t.kind === 'consume' || t.kind === 'settle'
                ? gate(h('button', { type: 'button', class: 'secondary', onclick: () => refund(ctx, t, refresh) }, 'Refund…'), ctx, 'points.manage')
                : null,
            ),
          ),
        'Nothing.',
      ),
    );
    return page;
  });
  kind.addEventListener('change', () => pages.first());
  box.reload = () => pages.first();
  box.replaceChildren(h('section', { class: 'card', dataset: { testid: 'history' } }, h('h2', {}, 'History'), field('Kind', kind), rows, pages.controls));
}

async function refund(ctx, transaction, refresh) {
  const amount = input({ inputmode: 'numeric', dataset: { field: 'amount' } });
  const reason = input({ dataset: { field: 'reason' } });
  const done = await openDialog({
    title: `Refund ${transaction.kind} of ${number(transaction.amount)} points?`,
    body: [
      h('p', { class: 'note' }, transaction.transactionId),
      field('Amount', amount, 'Empty = everything still refundable.'),
      field('Reason (optional)', reason),
    ],
    confirmLabel: 'Refund',
    onConfirm: () => {
      const body = {};
      if (amount.value.trim()) body.amount = numberOrRaw(amount.value);
      if (reason.value.trim()) body.reason = reason.value.trim();
      return api.post(path`/api/points/${ctx.realm}/transactions/${transaction.transactionId}/refund`, body);
    },
  });
  if (!done) return;
  await ctx.statusAfter(refresh(), `Refunded ${number(done.refunded)} points.`);
}

async function release(ctx, hold, refresh) {
  const done = await openDialog({
    title: `Release the hold of ${number(hold.amount)} points?`,
    body: [h('p', {}, `Hold ${hold.holdId}: everything held goes back where it came from.`)],
    confirmLabel: 'Release',
    danger: true,
    onConfirm: () => api.post(path`/api/points/${ctx.realm}/holds/${hold.holdId}/release`, {}),
  });
  if (!done) return;
  await ctx.statusAfter(refresh(), 'Hold released.');
}

async function deleteUser(view, ctx, user) {
  const done = await openDialog({
    title: 'Delete this user?',
    body: [
      h('p', {}, user.email || user.id),
      h(
        'p',
        {},
        'Every session is revoked, identities unlinked, email and names erased, subscriptions cancelled and every points row deleted. This cannot be undone.',
      ),
    ],
    confirmLabel: 'Delete',
    danger: true,
    onConfirm: () => api.delete(path`/api/admin/realms/${ctx.realm}/users/${user.id}`),
  });
  if (!done) return;
  view.replaceChildren(
    h(
      'p',
      { class: 'card', dataset: { testid: 'deleted' } },
      `User ${done.userId} deleted at ${new Date(done.deletedAt).toISOString()} (Apple revocation: ${done.appleRevocation}).`,
    ),
  );
  ctx.status('User deleted.');
}
