// Runs `bosun …` in this process through main(argv, io), with the shape of spawnSync's result,
// so CLI tests need no child process (spawning node per call took about half of the suite's time).
import { Readable, Writable } from 'node:stream';
import { main } from '../../src/cli/main.js';

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

class TextSink extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** `env` is the whole environment the command sees (nothing is inherited from process.env). */
export async function runCli(argv: string[], options: { env?: Record<string, string | undefined>; input?: string } = {}): Promise<CliResult> {
  const stdout = new TextSink();
  const stderr = new TextSink();
  const stdin = Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]);
  let status: number;
  try {
    status = await main(argv, { stdout, stderr, stdin, env: { LOG_LEVEL: 'silent', ...options.env } });
  } catch (e) {
    stderr.text += `bosun: ${(e as Error).stack ?? String(e)}\n`;
    status = 1;
  }
  return { status, stdout: stdout.text, stderr: stderr.text };
}
