// How far a long command is, on stderr (stdout stays the result's): on a terminal one bar per step
// redrawn in place (rows done of the total), otherwise one plain line per step when it ends, which
// a log keeps readably.
import type { CopyProgress } from '../server/store/copy.ts';

/** Redraws a bar at most this often: a terminal need not see every batch. */
const REDRAW_MS = 100;

export function progressOn(stream: NodeJS.WriteStream): CopyProgress {
  const tty = Boolean(stream.isTTY);
  let step = '';
  let total = 0;
  let done = 0;
  let drawn = 0;
  const draw = () => {
    drawn = Date.now();
    const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - 60));
    const filled = total > 0 ? Math.min(width, Math.round((done / total) * width)) : 0;
    const count = total > 0 ? `${done.toLocaleString('en')} / ${total.toLocaleString('en')}` : done.toLocaleString('en');
    stream.write(`\r\x1b[2K${step.padEnd(28)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${count}`);
  };
  return {
    begin(s, t) {
      step = s;
      total = t;
      done = 0;
      if (tty) draw();
    },
    advance(d, t) {
      done = d;
      if (t !== undefined) total = t;
      if (tty && Date.now() - drawn >= REDRAW_MS) draw();
    },
    end() {
      if (tty) {
        draw();
        stream.write('\n');
      } else stream.write(`${step}: ${done} of ${total}\n`);
    },
    note(text) {
      stream.write(`${text}\n`);
    },
  };
}
