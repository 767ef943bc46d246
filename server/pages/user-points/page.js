// The user's points page. Reads the gatehouse access token from the URL fragment once, keeps it in
// sessionStorage, clears the fragment, and renders GET /api/points/{realm}/me and the newest
// movements of GET /api/points/{realm}/me/transactions. It refreshes itself when the next recovery
// time passes or a hold runs out. Written for the app's users: plain words, no API terms.
(() => {
  const realm = decodeURIComponent(location.pathname.split('/')[1] || '');
  const storageKey = `gatehouse.points.token.${realm}`;
  const $ = (id) => document.getElementById(id);

  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  if (fragment.get('access_token')) {
    sessionStorage.setItem(storageKey, fragment.get('access_token'));
    // The token must not linger in the address bar, history or a shared screenshot.
    history.replaceState(null, '', location.pathname + location.search);
  }

  const PLANS = { subscription_credit: 'Subscription', free_periodic_credit: 'Free plan' };
  // Balances in the order they are listed; zero ones are not shown.
  const BALANCES = [
    ['subscription', 'Subscription points'],
    ['freePeriodic', 'Free points'],
    ['topup', 'Top-up'],
    ['granted', 'Extra points'],
    ['registration', 'Welcome bonus', 'never expires'],
  ];
  // How each movement of the history reads (docs/points.md: kinds).
  const MOVES = {
    consume: 'Used',
    grant: 'Added',
    hold: 'Set aside',
    settle: 'Charged',
    release: 'Returned',
    expire: 'Returned, time ran out',
    refund: 'Refunded',
  };
  // What a grant added to, named as the balances are (its own description is the service's wording).
  const GRANTS = {
    subscription_credit: 'Subscription points',
    free_periodic_credit: 'Free points',
    topup_credit: 'Top-up',
    granted_credit: 'Extra points',
    registration_credit: 'Welcome bonus',
  };
  const RECENT = 10;
  const number = new Intl.NumberFormat();
  const clockTime = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
  const weekday = new Intl.DateTimeFormat(undefined, { weekday: 'short' });
  const dayMonth = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
  let refreshTimer = null;
  let tickTimer = null;
  let last = null;

  function showStatus(text, isError) {
    const s = $('status');
    s.textContent = text;
    s.className = isError ? 'error' : '';
    s.hidden = !text;
  }

  const points = (n) => `${number.format(n)} ${n === 1 ? 'point' : 'points'}`;

  /** A window's length in words: 18000 → "5 hours", 86400 → "24 hours", 604800 → "7 days". */
  function span(seconds) {
    const units = [
      [86400, 'day'],
      [3600, 'hour'],
      [60, 'minute'],
      [1, 'second'],
    ];
    for (const [size, unit] of units) {
      // A day reads better as 24 hours: the window rolls, it does not reset at midnight.
      if (seconds % size === 0 && !(size === 86400 && seconds === 86400)) {
        const n = seconds / size;
        return { n, unit, text: n === 1 ? unit : `${n} ${unit}s` };
      }
    }
    return { n: seconds, unit: 'second', text: `${seconds} seconds` };
  }

  function windowName(w) {
    const s = span(w.windowSeconds);
    return `${PLANS[w.creditKind] || 'Plan'} · ${s.n}-${s.unit} limit`;
  }

  /** "in 3 h 12 min", "in 45 s", "now". */
  function relative(ms) {
    let s = Math.max(0, Math.round(ms / 1000));
    if (s === 0) return 'now';
    const d = Math.floor(s / 86400);
    s -= d * 86400;
    const h = Math.floor(s / 3600);
    s -= h * 3600;
    const m = Math.floor(s / 60);
    s -= m * 60;
    const parts = [];
    if (d) parts.push(`${d} d`);
    if (h) parts.push(`${h} h`);
    if (m && !d) parts.push(`${m} min`);
    if (!d && !h && !m) parts.push(`${s} s`);
    return glue(`in ${parts.join(' ')}`);
  }

  /** Keeps "4:40 PM" or "in 2 h 5 min" on one line. */
  const glue = (text) => text.replace(/ /g, '\u00a0');

  /** When `t` is, as a person says it: "at 14:05", "tomorrow at 09:00", "on Tue at 09:00". */
  function moment(t, now) {
    const day = (x) => new Date(x).toDateString();
    const time = glue(clockTime.format(new Date(t)));
    if (day(t) === day(now)) return { at: `at ${time}`, by: `by ${time}` };
    if (day(t) === day(now + 86400_000)) return { at: `tomorrow at ${time}`, by: `by tomorrow ${time}` };
    const date = glue(t - now < 6 * 86400_000 ? weekday.format(new Date(t)) : dayMonth.format(new Date(t)));
    return { at: `on ${date} at ${time}`, by: `by ${date} ${time}` };
  }

  /** When `t` (past) was: "today at 14:05", "yesterday at 09:00", "6 Jul at 09:00". */
  function past(t, now) {
    const day = (x) => new Date(x).toDateString();
    const time = glue(clockTime.format(new Date(t)));
    if (day(t) === day(now)) return `today at ${time}`;
    if (day(t) === day(now - 86400_000)) return `yesterday at ${time}`;
    return `${glue(dayMonth.format(new Date(t)))} at ${time}`;
  }

  /** One line: when used points come back. `nextRecoveryAt` is the first return, `resetsAt` the last. */
  function recoveryText(w, now) {
    if (!w.nextRecoveryAt) return `Nothing used in the last ${span(w.windowSeconds).text}.`;
    const next = Date.parse(w.nextRecoveryAt);
    const all = Date.parse(w.resetsAt);
    // Within a day the countdown helps; further out the date says it.
    const soon = next - now < 86400_000 ? `${moment(next, now).at} (${relative(next - now)})` : moment(next, now).at;
    const back = next === all ? `${points(w.used)} back ${soon}.` : `First points back ${soon}, all ${number.format(w.used)} back ${moment(all, now).by}.`;
    return w.exhausted ? `Used up. ${back}` : back;
  }

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function renderHolds(summary, now) {
    const list = $('holds');
    list.replaceChildren();
    for (const h of summary.holds) {
      const li = el('li', { class: 'hold', 'data-testid': 'hold', 'data-amount': String(h.amount) });
      li.append(
        el('span', { class: 'hold-amount' }, points(h.amount)),
        el('span', { class: 'back' }, `returned ${moment(Date.parse(h.expiresAt), now).by} unless used`),
      );
      list.append(li);
    }
    $('held-section').hidden = summary.holds.length === 0;
  }

  /** The newest movements, or the section hidden when they could not be read. */
  function renderActivity(activity, now) {
    const section = $('activity-section');
    if (!activity) {
      section.hidden = true;
      return;
    }
    const list = $('activity');
    list.replaceChildren();
    for (const t of activity.transactions.slice(0, RECENT)) {
      const li = el('li', { class: 'move', 'data-testid': 'move', 'data-kind': t.kind, 'data-amount': String(t.amount) });
      const head = el('div', { class: 'move-head' });
      head.append(el('span', { class: 'what' }, MOVES[t.kind] || t.kind), el('span', { class: 'move-amount' }, points(t.amount)));
      const at = Date.parse(t.createdAt);
      const when = el('time', { class: 'when', datetime: new Date(at).toISOString() }, past(at, now));
      li.append(head, when);
      const detail = t.kind === 'grant' ? GRANTS[t.allocations[0]?.creditKind] : t.description;
      if (detail) li.append(el('div', { class: 'detail' }, detail));
      list.append(li);
    }
    $('no-activity').hidden = list.childElementCount > 0;
    section.hidden = false;
  }

  function render(summary, activity) {
    last = summary;
    const now = Date.now();
    $('total').textContent = number.format(summary.total);
    $('total-unit').textContent = summary.total === 1 ? 'point' : 'points';
    const windows = summary.windows;
    const split = $('split');
    split.hidden = windows.length === 0;
    split.textContent = `${number.format(summary.spendableFromQuota)} within your usage limits, ${number.format(summary.spendableFromPool)} from your balances`;

    const list = $('windows');
    list.replaceChildren();
    for (const w of windows) {
      const li = el('li', { class: `window${w.exhausted ? ' exhausted' : ''}`, 'data-testid': 'window', 'data-key': w.key, 'data-kind': w.creditKind });
      const head = el('div', { class: 'window-head' });
      head.append(
        el('span', { class: 'window-name' }, windowName(w)),
        el('span', { class: 'left' }, `${number.format(w.remaining)} of ${number.format(w.limit)} left`),
      );
      li.append(head);
      // The bar shows what is left, like a battery.
      const pct = w.limit > 0 ? Math.max(0, Math.min(100, Math.round((w.remaining / w.limit) * 100))) : 0;
      const bar = el('div', {
        class: 'bar',
        role: 'meter',
        'aria-valuemin': '0',
        'aria-valuemax': String(w.limit),
        'aria-valuenow': String(w.remaining),
        'aria-label': `${windowName(w)}: ${number.format(w.remaining)} of ${number.format(w.limit)} points left`,
      });
      const fill = el('span');
      fill.style.width = `${pct}%`;
      bar.append(fill);
      li.append(bar);
      li.append(el('div', { class: 'recovery', 'data-testid': 'recovery' }, recoveryText(w, now)));
      li.dataset.remaining = String(w.remaining);
      li.dataset.limit = String(w.limit);
      li.dataset.used = String(w.used);
      list.append(li);
    }
    $('windows-section').hidden = windows.length === 0;
    const pool = summary.spendableFromPool;
    $('pool-note').textContent =
      pool > 0
        ? `When a limit is used up, your balances still pay: ${points(pool)} right now.`
        : 'When a limit is used up, only your balances can pay, and they are empty right now.';

    const dl = $('balances');
    dl.replaceChildren();
    for (const [k, name, hint] of BALANCES) {
      const v = summary.balances[k] || 0;
      if (!v) continue;
      const dt = el('dt', {}, name);
      if (hint) dt.append(' ', el('span', { class: 'hint' }, `· ${hint}`));
      dl.append(dt, el('dd', { 'data-balance': k }, number.format(v)));
    }
    $('no-balance').hidden = dl.childElementCount > 0;
    renderHolds(summary, now);
    renderActivity(activity, now);
    $('updated').textContent = clockTime.format(new Date(now));
    $('updated').setAttribute('datetime', new Date(now).toISOString());
    $('summary').hidden = false;
    showStatus('', false);
    schedule(summary, now);
  }

  function schedule(summary, now) {
    clearTimeout(refreshTimer);
    clearInterval(tickTimer);
    const times = [
      ...summary.windows.map((w) => (w.nextRecoveryAt ? Date.parse(w.nextRecoveryAt) : Infinity)),
      // A hold nobody settles gives its points back by itself at expiresAt.
      ...summary.holds.map((h) => Date.parse(h.expiresAt)),
    ].filter(Number.isFinite);
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
        if (w) li.querySelector('.recovery').textContent = recoveryText(w, t);
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
    const get = (path) => fetch(`/api/points/${encodeURIComponent(realm)}/${path}`, { headers: { authorization: `Bearer ${token}` }, cache: 'no-store' });
    let res;
    let moves;
    try {
      [res, moves] = await Promise.all([get('me'), get(`me/transactions?pageSize=${RECENT}`).catch(() => null)]);
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
    // The points come first: without the activity the page still shows them.
    const activity = moves?.ok ? await moves.json().catch(() => null) : null;
    render(await res.json(), activity);
  }

  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && last) load();
  });
  load();
})();
