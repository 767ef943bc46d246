// Runs a command in a real pseudo-terminal (util-linux `script`), so interactive prompts behave as
// they do for an operator: the test waits for what the screen shows, then types. Waits have no
// time limit: each ends when the screen shows what is awaited, or fails when the program has
// ended without showing it, however slow the machine.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { ROOT } from './server.ts';

export interface Pty {
  /** Everything printed so far, ANSI escapes removed. */
  screen(): string;
  /** Waits until the screen (after the mark) matches. */
  waitFor(re: RegExp): Promise<void>;
  type(keys: string): void;
  exit: Promise<number | null>;
  mark(): number;
  /** Moves the highlighted choice of a select prompt down to the one whose text matches, then
   *  presses Enter — waiting for the prompt to redraw after each key, so no keypress races it. */
  choose(label: RegExp): Promise<void>;
  kill(): void;
}

export const KEYS = { enter: '\r', down: '\x1b[B', up: '\x1b[A', ctrlC: '\x03' };

const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\x1b[()][AB0-2]/g, '');

/** A select prompt (inquirer) hides the cursor once it has drawn a whole frame. */
const FRAME_END = '\x1b[?25l';
const CURSOR = '❯';

export function runInPty(command: string, env: Record<string, string>): Pty {
  // `script` runs the command through $SHELL -c; `exec` leaves no shell in the terminal's
  // foreground process group, as an operator's interactive shell leaves none (it gives the terminal
  // to the command's own group). Else dash, the shell where SHELL is unset, also gets each Ctrl-C
  // and ends with 130 after the command has exited cleanly.
  const child: ChildProcessWithoutNullStreams = spawn('script', ['-qfec', `exec ${command}`, '/dev/null'], {
    cwd: ROOT,
    env: { ...process.env, ...env, TERM: 'xterm-256color', COLUMNS: '120', LINES: '40' },
  });
  let out = '';
  let from = 0;
  let ended = false;
  /** How much had been printed when keys were last sent: what comes later answers them. */
  let typedAt = 0;
  const waiting = new Set<() => void>();
  const changed = () => {
    for (const check of [...waiting]) check();
  };
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    changed();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    changed();
  });
  // 'close': the program has ended and everything it printed has been read.
  child.on('close', () => {
    ended = true;
    changed();
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  /** Resolves once `done()` holds after some output; rejects if the program ends first. */
  const until = (done: () => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (done()) {
          waiting.delete(check);
          resolve();
        } else if (ended) {
          waiting.delete(check);
          reject(new Error(`the program ended before ${what}; screen:\n${stripAnsi(out).slice(-2000)}`));
        }
      };
      waiting.add(check);
      check();
    });
  const send = (keys: string) => {
    typedAt = out.length;
    child.stdin.write(keys);
  };
  /** A select prompt drawn whole since the last keys (not the last frame of an earlier one). */
  const promptDrawn = () => {
    const cursor = out.lastIndexOf(CURSOR);
    return cursor >= typedAt && cursor < out.lastIndexOf(FRAME_END);
  };
  const cursorLine = () => {
    const screen = stripAnsi(out.slice(0, out.lastIndexOf(FRAME_END)));
    return screen.slice(screen.lastIndexOf(CURSOR)).split('\n')[0]!;
  };

  return {
    screen: () => stripAnsi(out),
    mark: () => (from = stripAnsi(out).length),
    waitFor: (re) => until(() => re.test(stripAnsi(out).slice(from)), `showing ${re}`),
    type: send,
    async choose(label) {
      for (let i = 0; i < 12; i++) {
        await until(promptDrawn, 'a select prompt was drawn');
        if (label.test(cursorLine())) {
          from = stripAnsi(out).length;
          send(KEYS.enter);
          return;
        }
        send(KEYS.down);
      }
      throw new Error(`no choice matching ${label}; screen:\n${stripAnsi(out).slice(-1500)}`);
    },
    kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
    exit,
  };
}
