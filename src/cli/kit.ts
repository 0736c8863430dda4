import type { ParseArgsConfig } from 'node:util';
import { createInterface } from 'node:readline';
import type { BosunCore } from '../app/create.js';
import { cliIo } from './io.js';

export type CommandOptions = NonNullable<ParseArgsConfig['options']>;

// The CLI kit: what every command module needs. It never loads the composition root at import time
// (withBosun imports it when a command runs), so `bosun --help` and `bosun decode` start small.

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

/**
 * Opens the configured store (migrated) and the services for a one-shot command, then closes them.
 * Nothing is started (createCore): no HTTP app, no jobs, no fleet state; a command that ingests
 * starts the fleet itself.
 */
export async function withBosun<T>(fn: (bosun: { ctx: BosunCore }) => Promise<T>): Promise<T> {
  const [{ loadConfig }, { createCore }] = await Promise.all([import('../platform/config.js'), import('../app/create.js')]);
  const config = loadConfig(cliIo().env);
  const core = await createCore({ ...config, logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel });
  try {
    return await fn({ ctx: core });
  } finally {
    await core.close();
  }
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
