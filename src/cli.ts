// The `bosun` executable: runs its command against this process's streams and environment.
import { mainProcess } from './cli/main.js';
import type { CliIo } from './cli-kit/io.js';
import { quietOnBrokenPipe } from './cli/cli-help.js';

quietOnBrokenPipe(process.stdout);

const io: CliIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };

mainProcess(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    io.stderr.write(`bosun: ${(e as Error).stack ?? e}\n`);
    process.exitCode = 1;
  },
);
