// Prompts exist only where a person can answer: stdin and stderr must be terminals. Prompts are
// written to stderr so that stdout keeps only the command's result. inquirer (some fifty modules)
// loads only when a question is asked: a command that asks none starts without it.
import { usageError } from './output.ts';

export function canPrompt(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

export async function promptModule() {
  const { default: inquirer } = await import('inquirer');
  return inquirer.createPromptModule({ input: process.stdin, output: process.stderr });
}

/** Asks for confirmation; without a terminal, fails naming the flag that skips the question. */
export async function confirmOrFail(message: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!canPrompt()) throw usageError(`${message} — no terminal to ask on; pass --yes to confirm`);
  const { ok } = await (await promptModule())([{ type: 'confirm', name: 'ok', message, default: false }]);
  if (!ok) throw usageError('cancelled; nothing was saved');
}
