// Runs the real CLI (bin/gatehouse) as a child process, to its end: no time limit, so a slow
// machine makes a test slower, never a failure.
import { spawn } from 'node:child_process';
import { BIN, ROOT } from './server.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  json(): any;
}

export function runCli(args: string[], opts: { env?: Record<string, string>; input?: string } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, GATEHOUSE_SERVER: '', GATEHOUSE_API_KEY: '', GATEHOUSE_REALM: '', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // 'close': exited, and all it printed has been read.
    proc.on('close', (code) => {
      resolve({ code, stdout, stderr, json: () => JSON.parse(stdout) });
    });
    proc.stdin.end(opts.input ?? '');
  });
}
