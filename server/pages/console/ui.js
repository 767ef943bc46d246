// DOM helpers of the console. Text from the API only ever goes in as text nodes (h's string
// children, textContent), never as markup.

/** h('p', {class: 'note'}, 'text', child): an element; strings become text nodes. Attributes: on*
 *  functions listen, `dataset` is copied, false/null/undefined are left out, true is present. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name === 'dataset') Object.assign(el.dataset, value);
    else if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (name === 'value') el.value = String(value);
    else if (name === 'checked') el.checked = Boolean(value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

let ids = 0;
/** A fresh id for label/input pairs. */
export const uid = (prefix) => `${prefix}-${++ids}`;

/** A labelled input: the label, the control and room for its error, as one block. */
export function field(label, control, hint) {
  control.id ||= uid('f');
  const hintEl = hint ? h('span', { class: 'hint', id: uid('hint') }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hintEl);
}

export const input = (attrs = {}) => h('input', { type: 'text', autocomplete: 'off', spellcheck: 'false', ...attrs });

export function select(options, value, attrs = {}) {
  const el = h('select', attrs, ...options.map((o) => h('option', { value: o }, o)));
  el.value = value ?? options[0];
  return el;
}

/** A whole number as the API takes it; anything else is sent as typed so the API names the
 *  problem in its own words (one validator, the server's); empty is null (required or not set). */
export function numberOrRaw(text) {
  const t = String(text).trim();
  if (t === '') return null;
  return /^-?\d+$/.test(t) ? Number(t) : t;
}

/** Removes every error shown inside `root`. */
export function clearErrors(root) {
  for (const e of root.querySelectorAll('.error[data-for]')) e.remove();
  for (const e of root.querySelectorAll('[aria-invalid]')) {
    e.removeAttribute('aria-invalid');
    const described = (e.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => !id.startsWith('err-'));
    if (described.length) e.setAttribute('aria-describedby', described.join(' '));
    else e.removeAttribute('aria-describedby');
  }
}

/** Shows `message` next to `target` (after its field block, or itself), tied to it for screen
 *  readers, and returns the message element. */
export function showError(target, message) {
  const anchor = target.closest('.field') ?? target;
  const id = uid('err');
  const p = h('p', { class: 'error', role: 'alert', id, dataset: { for: target.id || 'x' } }, message);
  anchor.after(p);
  if (target.matches('input, select, textarea, button, ol, ul, fieldset')) {
    target.setAttribute('aria-invalid', 'true');
    target.setAttribute('aria-describedby', [target.getAttribute('aria-describedby'), id].filter(Boolean).join(' '));
  }
  return p;
}

/** An API refusal shown next to the control its `field` names inside `root` (data-field), else
 *  next to `fallback`; the named control takes the focus. */
export function showApiError(root, err, fallback) {
  const message = messageOf(err);
  const name = err?.body?.field;
  const target = (name && [...root.querySelectorAll('[data-field]')].find((e) => e.dataset.field === name)) || fallback;
  const p = showError(target, message);
  if (target.matches('input, select, textarea')) target.focus();
  return p;
}

export const messageOf = (err) => (err && typeof err.message === 'string' && err.message ? err.message : 'Something went wrong');

/** A modal dialog (the native <dialog>: the rest of the page is inert while it is open and Escape
 *  closes it; Tab wraps inside it). `onConfirm` may throw an ApiError: its message is shown in
 *  the dialog and the dialog stays open. Resolves with onConfirm's result, or null when cancelled. */
export function openDialog({ title, body = [], confirmLabel = 'Confirm', danger = false, onConfirm = async () => true }) {
  return new Promise((resolve) => {
    const opener = document.activeElement;
    const titleId = uid('dlg');
    const cancel = h('button', { type: 'button', class: 'secondary' }, 'Cancel');
    const confirm = h('button', { type: 'submit', class: danger ? 'danger' : '' }, confirmLabel);
    const form = h('form', { method: 'dialog' }, h('h2', { id: titleId }, title), ...body, h('div', { class: 'actions' }, cancel, confirm));
    const dialog = h('dialog', { 'aria-labelledby': titleId, dataset: { testid: 'dialog' } }, form);
    let result = null;
    const close = () => dialog.close();
    cancel.addEventListener('click', close);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      clearErrors(form);
      confirm.disabled = true;
      try {
        result = (await onConfirm(form)) ?? true;
        close();
      } catch (err) {
        showApiError(form, err, confirm);
      } finally {
        confirm.disabled = false;
      }
    });
    // The page behind is inert, but Tab would still leave for the browser's own controls: wrap.
    dialog.addEventListener('keydown', (event) => {
      if (event.key !== 'Tab') return;
      const focusable = [...dialog.querySelectorAll('button, input, select, textarea, [tabindex]')].filter((e) => !e.disabled && e.tabIndex >= 0);
      const first = focusable[0];
      const last = focusable.at(-1);
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    });
    dialog.addEventListener('close', () => {
      dialog.remove();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
      resolve(result);
    });
    document.body.append(dialog);
    dialog.showModal();
    // A destructive action starts on Cancel, so Enter alone does not confirm it.
    (danger ? cancel : (form.querySelector('input, select, textarea') ?? confirm)).focus();
  });
}

/** A control the signed-in key may not use is shown disabled with the permission it needs. */
export function gate(control, ctx, permission) {
  if (ctx.can(permission)) return control;
  control.disabled = true;
  const note = h('span', { class: 'needs', dataset: { testid: 'needs' } }, `needs ${permission}`);
  return h('span', { class: 'gated' }, control, note);
}

/** A form's fieldsets disabled, with a note, when the key lacks `permission`. */
export function gateForm(form, ctx, permission) {
  if (ctx.can(permission)) return form;
  for (const el of form.elements) el.disabled = true;
  form.prepend(h('p', { class: 'needs', dataset: { testid: 'needs' } }, `This key cannot change this: needs ${permission}.`));
  return form;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
/** An RFC 3339 time from the API, as a <time> element. */
export function time(value) {
  if (!value) return h('span', { class: 'muted' }, '—');
  return h('time', { datetime: value }, dateTime.format(new Date(value)));
}

export const number = (n) => new Intl.NumberFormat().format(n);

/** A table; on a phone each row reads as a card, each cell labelled by its column (data-label). */
export function table(headers, rows, attrs = {}) {
  for (const row of rows) {
    [...row.children].forEach((cell, i) => {
      if (headers[i]) cell.dataset.label = headers[i];
    });
  }
  return h(
    'div',
    // Focusable, so a keyboard can scroll it when it is wider than the page.
    { class: 'table-box', tabindex: '0', role: 'region', 'aria-label': attrs['aria-label'] ?? 'Table' },
    h('table', attrs, h('thead', {}, h('tr', {}, ...headers.map((t) => h('th', { scope: 'col' }, t)))), h('tbody', {}, ...rows)),
  );
}

/** The table of `items` (one row each, by `toRow`), or the `empty` note when there are none. */
export function tableOf(label, headers, items, toRow, empty) {
  return items.length ? table(headers, items.map(toRow), { 'aria-label': label }) : h('p', { class: 'note' }, empty);
}

/** Newer/Older buttons over an API's page tokens. `show(token)` reads and renders one page and
 *  returns it; `first()` starts again from the newest. */
export function pager(show) {
  const tokens = ['']; // the tokens walked so far, the newest page's first
  let next = '';
  const newer = h('button', { type: 'button', class: 'secondary' }, 'Newer');
  const older = h('button', { type: 'button', class: 'secondary' }, 'Older');
  const load = async () => {
    const page = await show(tokens.at(-1));
    next = page.nextPageToken ?? '';
    older.disabled = !next;
    newer.disabled = tokens.length === 1;
  };
  newer.addEventListener('click', () => {
    tokens.pop();
    load();
  });
  older.addEventListener('click', () => {
    tokens.push(next);
    load();
  });
  return {
    controls: h('div', { class: 'actions' }, newer, older),
    load,
    first() {
      tokens.length = 1;
      return load();
    },
  };
}
