// The admin console's entry (docs/console.md): sign-in with an API key kept in sessionStorage, the
// navigation, and the page this shell was served for. Every page calls the public HTTP API with the
// key as the X-API-Key header; what the key may not do is shown disabled (GET /api/admin/whoami).
import { ApiError, api, session } from './api.js';
import { clearErrors, h, messageOf, showError } from './ui.js';

const realm = decodeURIComponent(location.pathname.split('/')[1] ?? '');
const base = `/${encodeURIComponent(realm)}/manage`;
const $ = (id) => document.getElementById(id);

const PAGES = {
  home: { path: '', title: 'Console', load: async () => ({ render: renderHome }) },
  'default-config': { path: '/points/default-config', title: 'Default points configuration', load: () => import('./default-config.js') },
  'entitlement-mappings': { path: '/billing/entitlement-mappings', title: 'Entitlement mappings', load: () => import('./mappings.js') },
  users: { path: '/users', title: 'Users', load: () => import('./users.js') },
  webhooks: { path: '/webhooks', title: 'Webhooks', load: () => import('./webhooks.js') },
  audit: { path: '/audit', title: 'Audit log', load: () => import('./audit.js') },
};
const pageName = PAGES[document.body.dataset.page] ? document.body.dataset.page : 'home';
const page = PAGES[pageName];

function status(text, isError = false) {
  const s = $('status');
  s.textContent = text;
  s.className = isError ? 'error' : '';
}

function renderHome(root) {
  const what = {
    'default-config': 'The realm default: registration bonus, the free periodic grant and its rolling windows.',
    'entitlement-mappings': 'What each payment provider product grants, with its windows.',
    users: 'Find a user by id or email: windows, holds, history; grant, refund, release, delete.',
    webhooks: 'Endpoints, their deliveries, redelivery and a test event.',
    audit: 'Every change, newest first, with filters.',
  };
  root.append(
    h(
      'ul',
      { class: 'home' },
      ...Object.entries(what).map(([name, text]) => h('li', {}, h('a', { href: base + PAGES[name].path }, PAGES[name].title), h('p', { class: 'note' }, text))),
    ),
  );
}

function showSignIn(message) {
  $('content').replaceChildren();
  $('who').hidden = true;
  const form = $('sign-in');
  form.hidden = false;
  clearErrors(form);
  if (message) showError($('key'), message);
  $('key').focus();
}

async function whoAmI() {
  try {
    return await api.get('/api/admin/whoami');
  } catch (err) {
    // A key that no longer works is forgotten at once.
    if (err instanceof ApiError && err.status === 401) session.clear();
    throw err;
  }
}

async function start() {
  const who = await whoAmI();
  const ctx = {
    realm,
    base,
    who,
    status,
    /** Shows `text` once `reloading` (what the action changed, read again) has settled, so a message
     *  never stands beside figures from before the action; a reload that fails still shows it,
     *  before its own error. */
    statusAfter: (reloading, text) => reloading.finally(() => status(text)),
    /** Whether the key may call what needs `permission` in this realm. */
    can: (permission) => (who.realm === '*' || who.realm === realm) && (who.permissions.includes('*') || who.permissions.includes(permission)),
  };
  $('sign-in').hidden = true;
  $('who').hidden = false;
  $('who-text').textContent = `Key ${who.keyId} · ${who.realm === '*' ? 'every realm' : `realm ${who.realm}`} · ${who.permissions.join(', ')}`;
  const content = $('content');
  content.replaceChildren();
  if (who.realm !== '*' && who.realm !== realm) {
    content.append(h('p', { class: 'needs', dataset: { testid: 'needs' } }, `This key is bound to realm ${who.realm}: it can do nothing in ${realm}.`));
    return;
  }
  const mod = await page.load();
  await mod.render(content, ctx);
}

async function run() {
  status('');
  try {
    await start();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) showSignIn(messageOf(err));
    else status(messageOf(err), true);
  }
}

document.title = `${page.title} · ${realm} · gatehouse`;
$('title').textContent = page.title;
$('realm').textContent = realm;
for (const a of document.querySelectorAll('#nav a')) {
  if (a.dataset.page === pageName) a.setAttribute('aria-current', 'page');
}

$('sign-in').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = $('key');
  const key = input.value.trim();
  // The key leaves the form at once: it lives in sessionStorage only.
  input.value = '';
  clearErrors($('sign-in'));
  if (!key) {
    showError(input, 'An API key is required');
    return;
  }
  session.save(key);
  await run();
  if (!$('who').hidden) $('sign-out').focus();
});

$('sign-out').addEventListener('click', () => {
  session.clear();
  showSignIn();
  status('Signed out.');
});

if (session.key()) run();
else showSignIn();
