// The multi-window editor (docs/points.md "Rolling windows", docs/console.md): rows of
// {windowSeconds, limit} to add, remove and reorder. It checks nothing itself: the API validates,
// and its message is shown next to the row and field it names (`{prefix}[i].windowSeconds`), so
// the console never words a rule twice.
import { h, input, numberOrRaw, uid } from './ui.js';

/** A window length in words: 18000 → "5 hours", 604800 → "7 days". */
export function span(seconds) {
  if (!Number.isSafeInteger(seconds) || seconds <= 0) return '';
  for (const [size, unit] of [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ]) {
    if (seconds % size === 0) {
      const n = seconds / size;
      return n === 1 ? `1 ${unit}` : `${n} ${unit}s`;
    }
  }
  return '';
}

/** windows: the stored list (null = none set). prefix: the API's name of the list, e.g.
 *  `freePeriodicQuotaWindows` or `updates[0].quotaWindows`. */
export function windowsEditor({ windows, prefix, label, disabled = false }) {
  let touched = false;
  const list = h('ol', { class: 'windows', dataset: { field: prefix, testid: 'windows-editor' }, 'aria-label': label });
  const empty = h('p', { class: 'note', dataset: { testid: 'no-windows' } }, 'No windows: the grant is a fixed balance.');
  const add = h('button', { type: 'button', class: 'secondary', dataset: { testid: 'add-window' }, disabled }, 'Add window');

  function row(w) {
    const seconds = input({ id: uid('seconds'), inputmode: 'numeric', class: 'seconds', value: w.windowSeconds ?? '', disabled });
    const limit = input({ id: uid('limit'), inputmode: 'numeric', class: 'limit', value: w.limit ?? '', disabled });
    const words = h('span', { class: 'hint', 'aria-live': 'polite' }, span(Number(w.windowSeconds)));
    seconds.addEventListener('input', () => {
      words.textContent = span(Number(seconds.value));
    });
    const up = h('button', { type: 'button', class: 'icon secondary', dataset: { move: '-1' }, disabled }, '↑');
    const down = h('button', { type: 'button', class: 'icon secondary', dataset: { move: '1' }, disabled }, '↓');
    const remove = h('button', { type: 'button', class: 'secondary', dataset: { remove: '' }, disabled }, 'Remove');
    const li = h(
      'li',
      { class: 'window-row', dataset: { testid: 'window-row' } },
      h('div', { class: 'field' }, h('label', { for: seconds.id }, 'Length (seconds)'), seconds, words),
      h('div', { class: 'field' }, h('label', { for: limit.id }, 'Limit (points)'), limit),
      h('div', { class: 'row-actions' }, up, down, remove),
    );
    up.addEventListener('click', () => move(li, -1, up));
    down.addEventListener('click', () => move(li, 1, down));
    remove.addEventListener('click', () => {
      const next = li.nextElementSibling ?? li.previousElementSibling;
      li.remove();
      changed();
      (next?.querySelector('input') ?? add).focus();
    });
    return li;
  }

  function move(li, by, button) {
    const sibling = by < 0 ? li.previousElementSibling : li.nextElementSibling;
    if (!sibling) return;
    if (by < 0) sibling.before(li);
    else sibling.after(li);
    changed();
    button.focus();
  }

  /** Names, labels and field paths follow the rows' order. */
  function changed() {
    touched = true;
    renumber();
  }

  function renumber() {
    const rows = [...list.children];
    rows.forEach((li, i) => {
      const [seconds, limit] = li.querySelectorAll('input');
      seconds.dataset.field = `${prefix}[${i}].windowSeconds`;
      limit.dataset.field = `${prefix}[${i}].limit`;
      seconds.setAttribute('aria-label', `Window ${i + 1} length in seconds`);
      limit.setAttribute('aria-label', `Window ${i + 1} limit`);
      const [up, down, remove] = li.querySelectorAll('button');
      up.setAttribute('aria-label', `Move window ${i + 1} up`);
      down.setAttribute('aria-label', `Move window ${i + 1} down`);
      remove.setAttribute('aria-label', `Remove window ${i + 1}`);
      if (!disabled) {
        up.disabled = i === 0;
        down.disabled = i === rows.length - 1;
      }
    });
    empty.hidden = rows.length > 0;
  }

  add.addEventListener('click', () => {
    const li = row({});
    list.append(li);
    changed();
    li.querySelector('input').focus();
  });

  for (const w of windows ?? []) list.append(row(w));
  renumber();

  return {
    element: h('fieldset', { class: 'windows-editor' }, h('legend', {}, label), empty, list, add),
    /** The rows as the API takes them, or null when untouched (PUT leaves the stored list). */
    value() {
      if (!touched) return null;
      return [...list.children].map((li) => {
        const [seconds, limit] = li.querySelectorAll('input');
        return { windowSeconds: numberOrRaw(seconds.value), limit: numberOrRaw(limit.value) };
      });
    },
  };
}
