// Runs a command in a real pseudo-terminal (util-linux `script`), so interactive prompts behave as
// they do for an operator: the test waits for what the screen shows, then types.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { ROOT } from './server.ts';

export interface Pty {
  /** Everything printed so far, ANSI escapes removed. */
  screen(): string;
  /** Waits until the screen (after `since` characters) matches. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<void>;
  type(keys: string): void;
  exit: Promise<number | null>;
  mark(): number;
  /** Moves the highlighted choice of a select prompt down to the one whose text matches, then
   *  presses Enter — waiting for the screen after each key, so no keypress races the prompt. */
  choose(label: RegExp): Promise<void>;
  kill(): void;
}

export const KEYS = { enter: '\r', down: '\x1b[B', up: '\x1b[A' };

const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\x1b[()][AB0-2]/g, '');

export function runInPty(command: string, env: Record<string, string>): Pty {
  const child: ChildProcessWithoutNullStreams = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: { ...process.env, ...env, TERM: 'xterm-256color', COLUMNS: '120', LINES: '40' },
  });
  let out = '';
  let from = 0;
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    screen: () => stripAnsi(out),
    mark: () => (from = stripAnsi(out).length),
    waitFor(re, timeoutMs = 15_000) {
      const start = Date.now();
      return new Promise((resolve, reject) => {
        const tick = () => {
          if (re.test(stripAnsi(out).slice(from))) return resolve();
          if (Date.now() - start > timeoutMs) return reject(new Error(`timed out waiting for ${re}; screen:\n${stripAnsi(out).slice(-2000)}`));
          setTimeout(tick, 25);
        };
        tick();
      });
    },
    type(keys) {
      child.stdin.write(keys);
    },
    async choose(label) {
      for (let i = 0; i < 12; i++) {
        const screen = stripAnsi(out);
        const cursor = screen.slice(screen.lastIndexOf('❯')).split('\n')[0]!;
        if (label.test(cursor)) {
          from = screen.length;
          child.stdin.write(KEYS.enter);
          return;
        }
        const before = out.length;
        child.stdin.write(KEYS.down);
        const start = Date.now();
        while (out.length === before && Date.now() - start < 5000) await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, 30)); // let the redraw finish
      }
      throw new Error(`no choice matching ${label}; screen:\n${stripAnsi(out).slice(-1500)}`);
    },
    kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
    exit,
  };
}
