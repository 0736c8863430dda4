import { AsyncLocalStorage } from 'node:async_hooks';

/** Where a `bosun` command reads and writes: the process for the real CLI, buffers for an in-process caller. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** The environment configuration is loaded from (src/platform/config.ts reads nothing else). */
  env: Readonly<Record<string, string | undefined>>;
}

// Commands reach their io through async context rather than a parameter, so a command's helpers
// (out, err, withBosun) need no io argument and concurrent in-process runs do not mix output.
const current = new AsyncLocalStorage<CliIo>();
/**
 * The executable runs one command for the life of its process, so its io needs no async context: an
 * AsyncLocalStorage in use puts a hook on every promise the process creates, `serve`'s requests included.
 */
let processIo: CliIo | undefined;

export function runWithCliIo<T>(io: CliIo, fn: () => Promise<T>): Promise<T> {
  return current.run(io, fn);
}

/** The executable's command: `io` is the process's own, for as long as the process lives. */
export function runAsProcess<T>(io: CliIo, fn: () => Promise<T>): Promise<T> {
  processIo = io;
  return fn();
}

export function cliIo(): CliIo {
  const io = current.getStore() ?? processIo;
  if (!io) throw new Error('bosun command run outside main(argv, io)');
  return io;
}
