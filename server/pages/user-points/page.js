// The user's points page. Reads the gatehouse access token from the URL fragment once, keeps it in
// sessionStorage, clears the fragment, and renders GET /api/points/{realm}/me. It refreshes itself
// when the next recovery time passes.
(() => {
  'use strict';
  const realm = decodeURIComponent(location.pathname.split('/')[1] || '');
  const storageKey = `gatehouse.points.token.${realm}`;
  const $ = (id) => document.getElementById(id);

  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  if (fragment.get('access_token')) {
    sessionStorage.setItem(storageKey, fragment.get('access_token'));
    // The token must not linger in the address bar, history or a shared screenshot.
    history.replaceState(null, '', location.pathname + location.search);
  }

  const LABELS = { subscription_credit: 'Subscription', free_periodic_credit: 'Free' };
  const KEY_NAMES = { '5h': '5-hour', day: 'Daily', week: 'Weekly', month: 'Monthly' };
  const BALANCE_NAMES = { subscription: 'Subscription', freePeriodic: 'Free periodic', topup: 'Top-up', registration: 'Welcome bonus', granted: 'Granted' };
  const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  const number = new Intl.NumberFormat();
  let refreshTimer = null;
  let tickTimer = null;
  let last = null;

  function showStatus(text, isError) {
    const s = $('status');
    s.textContent = text;
    s.className = isError ? 'error' : '';
    s.hidden = !text;
  }

  /** "in 3 h 12 min", "in 45 s", "now". */
  function relative(ms) {
    let s = Math.max(0, Math.round(ms / 1000));
    if (s === 0) return 'now';
    const d = Math.floor(s / 86400); s -= d * 86400;
    const h = Math.floor(s / 3600); s -= h * 3600;
    const m = Math.floor(s / 60); s -= m * 60;
    const parts = [];
    if (d) parts.push(`${d} d`);
    if (h) parts.push(`${h} h`);
    if (m && !d) parts.push(`${m} min`);
    if (!d && !h && !m) parts.push(`${s} s`);
    return `in ${parts.join(' ')}`;
  }

  function windowName(w) {
    const span = KEY_NAMES[w.key] || w.key;
    return `${LABELS[w.creditKind] || w.creditKind} · ${span}`;
  }

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function recoveryText(w, now) {
    if (!w.nextRecoveryAt) return 'Nothing used in this window';
    const next = Date.parse(w.nextRecoveryAt);
    const all = Date.parse(w.resetsAt);
    const at = (t) => `${relative(t - now)} (${absolute.format(new Date(t))})`;
    if (w.exhausted) return `Limit reached — quota returns ${at(next)}`;
    return next === all ? `Fully restored ${at(all)}` : `Next points return ${at(next)}; fully restored ${at(all)}`;
  }

  function render(summary) {
    last = summary;
    const now = Date.now();
    $('total').textContent = number.format(summary.total);
    const list = $('windows');
    list.replaceChildren();
    for (const w of summary.windows) {
      const li = el('li', { class: `window${w.exhausted ? ' exhausted' : ''}`, 'data-testid': 'window', 'data-key': w.key, 'data-kind': w.creditKind });
      const head = el('div', { class: 'window-head' });
      head.append(el('span', { class: 'window-name' }, windowName(w)));
      if (w.isTightest) head.append(el('span', { class: 'tightest', 'data-testid': 'tightest' }, 'Tightest'));
      li.append(head);
      const pct = w.limit > 0 ? Math.min(100, Math.round((w.used / w.limit) * 100)) : 100;
      const bar = el('div', { class: 'bar', role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': String(w.limit), 'aria-valuenow': String(w.used), 'aria-label': `${windowName(w)} used` });
      const fill = el('span');
      fill.style.width = `${pct}%`;
      bar.append(fill);
      li.append(bar);
      li.append(el('div', { class: 'numbers' }, `${number.format(w.remaining)} of ${number.format(w.limit)} left · ${number.format(w.used)} used`));
      const rec = el('div', { class: 'recovery', 'data-testid': 'recovery' }, recoveryText(w, now));
      if (w.nextRecoveryAt) rec.append(el('time', { datetime: w.nextRecoveryAt, hidden: '' }));
      li.append(rec);
      li.dataset.remaining = String(w.remaining);
      li.dataset.limit = String(w.limit);
      li.dataset.used = String(w.used);
      list.append(li);
    }
    $('windows-section').hidden = summary.windows.length === 0;
    const dl = $('balances');
    dl.replaceChildren();
    for (const [k, name] of Object.entries(BALANCE_NAMES)) {
      const v = summary.balances[k] || 0;
      if (!v && (k === 'subscription' || k === 'freePeriodic')) continue;
      dl.append(el('dt', {}, name), el('dd', { 'data-balance': k }, number.format(v)));
    }
    $('updated').textContent = absolute.format(new Date(now));
    $('updated').setAttribute('datetime', new Date(now).toISOString());
    $('summary').hidden = false;
    showStatus('', false);
    schedule(summary, now);
  }

  function schedule(summary, now) {
    clearTimeout(refreshTimer);
    clearInterval(tickTimer);
    const times = summary.windows.map((w) => (w.nextRecoveryAt ? Date.parse(w.nextRecoveryAt) : Infinity)).filter(Number.isFinite);
    if (times.length) {
      // Reload just after the earliest recovery (timers cap at ~24.8 days; an hour is plenty).
      const wait = Math.min(Math.max(Math.min(...times) - now + 500, 1000), 3600_000);
      refreshTimer = setTimeout(load, wait);
    }
    tickTimer = setInterval(() => {
      if (!last) return;
      const t = Date.now();
      document.querySelectorAll('[data-testid="window"]').forEach((li, i) => {
        const w = last.windows[i];
        if (w) li.querySelector('.recovery').firstChild.textContent = recoveryText(w, t);
      });
    }, 30_000);
  }

  /** The token's own expiry (a JWT's exp), so an expired session is told without a failing call. */
  function expired(token) {
    try {
      const payload = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
      return typeof payload.exp === 'number' && payload.exp * 1000 <= Date.now();
    } catch {
      return false; // not ours to judge: the server answers 401 if it is no good
    }
  }

  function sessionOver() {
    sessionStorage.removeItem(storageKey);
    $('summary').hidden = true;
    clearTimeout(refreshTimer);
    clearInterval(tickTimer);
    showStatus('Your session has expired. Open this page again from the app.', true);
  }

  async function load() {
    const token = sessionStorage.getItem(storageKey);
    if (!token) {
      $('summary').hidden = true;
      showStatus('Open this page from the app to see your points.', true);
      return;
    }
    if (expired(token)) {
      sessionOver();
      return;
    }
    let res;
    try {
      res = await fetch(`/api/points/${encodeURIComponent(realm)}/me`, { headers: { authorization: `Bearer ${token}` }, cache: 'no-store' });
    } catch {
      showStatus('Could not reach the server. Check your connection and reload.', true);
      return;
    }
    if (res.status === 401) {
      sessionOver();
      return;
    }
    if (!res.ok) {
      showStatus(`Could not load your points (error ${res.status}). Try again later.`, true);
      return;
    }
    render(await res.json());
  }

  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && last) load();
  });
  load();
})();
