import type { ParseArgsConfig } from 'node:util';
import { createInterface } from 'node:readline';
import type { Logger } from '../observability/logger.js';
import type { Clock } from '../platform/clock.js';
import { AppError } from '../platform/errors.js';
import type { Services } from '../platform/services.js';
import { cliIo } from './io.js';

export type CommandOptions = NonNullable<ParseArgsConfig['options']>;

// The CLI kit: what every command module needs, lower layers' commands included. It never imports the
// composition root: src/cli/main.ts hands it the opener, which loads the app only when a command runs, so
// `bosun --help` and `bosun decode` start small.

/** One `bosun` sub-command; features contribute theirs through src/cli/commands.ts. */
export interface Command {
  /** Words after `bosun`, e.g. "operator token". */
  name: string;
  summary: string;
  usage: string;
  options?: CommandOptions;
  run(args: { values: Record<string, string | boolean | undefined>; positionals: string[] }): Promise<number>;
}

export const out = (line = '') => cliIo().stdout.write(line + '\n');
export const err = (line: string) => cliIo().stderr.write(line + '\n');

/** The command's first argument; invalid_request "give <what>" when it is missing. */
export function firstArgument(positionals: readonly string[], what: string): string {
  const value = positionals[0];
  if (!value) throw new AppError('invalid_request', `give ${what}`);
  return value;
}

/** Who a command acts as, in the audit log and the records it changes. */
export const CLI_ACTOR = { kind: 'cli' } as const;

/** An option's text, or undefined when it was not given. */
export const optionalText = (value: string | boolean | undefined): string | undefined => (typeof value === 'string' ? value : undefined);

/** `--limit` as a whole number from 1 to `max` (no upper bound when `max` is not given). */
export function limitOption(value: string | boolean | undefined, max?: number): number {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || (max !== undefined && limit > max))
    throw new AppError('invalid_request', max === undefined ? '--limit must be a whole number, at least 1' : `--limit must be a whole number from 1 to ${max}`);
  return limit;
}

/** Prints each row, or `none` when there is none; a listing command's exit status. */
export function printRows<T>(rows: readonly T[], print: (row: T) => void, none: string): 0 {
  for (const row of rows) print(row);
  if (rows.length === 0) out(none);
  return 0;
}

/** What a one-shot command works with: the services of a store opened for it (src/app/create.ts's createCore). */
export interface CommandCore {
  services: Services;
  clock: Clock;
  logger: Logger;
  close(): Promise<void>;
}

let openCore: (() => Promise<CommandCore>) | undefined;

/** src/cli/main.ts, the only runner of commands, hands the kit the composition root's opener. */
export function provideCoreOpener(open: () => Promise<CommandCore>): void {
  openCore = open;
}

/**
 * Opens the configured store (migrated) and the services for a one-shot command, then closes them.
 * Nothing is started (createCore): no HTTP app, no jobs, no fleet state; a command that ingests
 * starts the fleet itself.
 */
export async function withBosun<T>(fn: (bosun: { ctx: CommandCore }) => Promise<T>): Promise<T> {
  if (!openCore) throw new Error('bosun command run outside src/cli/main.ts (no store opener)');
  const core = await openCore();
  try {
    return await fn({ ctx: core });
  } finally {
    await core.close();
  }
}

/** Prints `prefix: message` on standard error; the exit status of a refused command. */
export function failWith(prefix: string, message: string): 1 {
  err(`${prefix}: ${message}`);
  return 1;
}

/** Runs `fn` on the services of an opened store; a refusal (AppError) is printed after `prefix` and exits 1. */
export function runRefusing(prefix: string, fn: (services: Services) => Promise<void>): Promise<number> {
  return withBosun(async ({ ctx }) => {
    try {
      await fn(ctx.services);
      return 0;
    } catch (e) {
      if (e instanceof AppError) return failWith(prefix, e.message);
      throw e;
    }
  });
}

/** Reads a secret: prompted without echo on a terminal, otherwise the whole of standard input. */
export async function readSecret(prompt: string): Promise<string> {
  const { stdin } = cliIo();
  if (!stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const output = rl as unknown as { _writeToOutput: (s: string) => void; output: NodeJS.WriteStream };
  let muted = false;
  output._writeToOutput = (s: string) => {
    if (!muted || s.includes(prompt)) output.output.write(s);
  };
  try {
    return await new Promise<string>((resolve) => {
      rl.question(prompt, (answer) => {
        output.output.write('\n');
        resolve(answer);
      });
      muted = true;
    });
  } finally {
    rl.close();
  }
}
