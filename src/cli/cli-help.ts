import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from '../cli-kit/kit.js';

/** The commands under a group of words (`bosun agents` → agents list, agents show, …), sorted by name. */
export function commandsUnder(commands: readonly Command[], words: readonly string[]): Command[] {
  return commands.filter((c) => c.name.split(' ').length > words.length && words.every((w, i) => c.name.split(' ')[i] === w)).sort((a, b) => a.name.localeCompare(b.name));
}

/** The longest leading run of `argv` that is a group of commands, with the commands under it. */
export function groupOf(commands: readonly Command[], argv: readonly string[]): { words: string[]; commands: Command[] } | null {
  for (let n = argv.length; n > 0; n--) {
    const words = argv.slice(0, n);
    const under = commandsUnder(commands, words);
    if (under.length > 0) return { words, commands: under };
  }
  return null;
}

export function commandList(commands: readonly Command[]): string[] {
  const width = Math.max(...commands.map((c) => c.name.length));
  return commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
}

/** Options whose value is a count: a whole number from 1 (`--limit abc` is refused before anything opens). */
const COUNT_OPTIONS = ['limit', 'days'] as const;

/** A message for the first count option whose value is not a whole number from 1, or null. */
export function badOptionValue(values: Readonly<Record<string, unknown>>): string | null {
  for (const name of COUNT_OPTIONS) {
    const value = values[name];
    if (typeof value !== 'string') continue;
    if (!/^[1-9][0-9]{0,8}$/.test(value.trim())) return `--${name} must be a whole number from 1 (got "${value}")`;
  }
  return null;
}

/** Bosun's version, from its package.json (the nearest above this module, from dist/ or from sources). */
export function bosunVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * A reader that closes the pipe early (`bosun agents list | head`) makes the next write fail with
 * EPIPE: the output is no longer wanted, so the process ends quietly with success instead of a stack.
 */
export function quietOnBrokenPipe(stream: NodeJS.WritableStream, exit: (code: number) => void = (code) => process.exit(code)): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') exit(0);
    else throw e;
  });
}
