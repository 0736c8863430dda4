import { parseArgs } from 'node:util';
import { ConfigError } from '../platform/config-error.js';
import { AppError } from '../platform/errors.js';
import { err, out, provideCoreOpener, type Command } from '../cli-kit/kit.js';
import { loadCommands } from './commands.js';
import { badOptionValue, bosunVersion, commandList, groupOf } from './cli-help.js';
import { cliIo, runAsProcess, runWithCliIo, type CliIo } from '../cli-kit/io.js';

// Commands open the store through the CLI kit; the composition root (and TypeBox, through the config
// schema) is imported only when a command opens it.
provideCoreOpener(async () => {
  const [{ loadConfig }, { createCore }] = await Promise.all([import('../platform/config.js'), import('../app/create.js')]);
  const config = loadConfig(cliIo().env);
  return createCore({ ...config, logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel });
});

function help(commands: Command[]): string {
  return ['bosun — open maritime information service for software agents', '', 'Commands:', ...commandList(commands), '', 'Run "bosun <command> --help" for details.'].join('\n');
}

/** Runs one `bosun` command line against `io` and resolves to its exit code. */
export function main(argv: string[], io: CliIo): Promise<number> {
  return runWithCliIo(io, () => runCommand(argv));
}

/** Runs the executable's command line against the process's own streams and environment. */
export function mainProcess(argv: string[], io: CliIo): Promise<number> {
  return runAsProcess(io, () => runCommand(argv));
}

async function runCommand(argv: string[]): Promise<number> {
  const commands = await loadCommands(argv[0]);
  const command = commands
    .filter((c) => {
      const words = c.name.split(' ');
      return words.every((w, i) => argv[i] === w);
    })
    .sort((a, b) => b.name.length - a.name.length)[0];
  if (!command) {
    if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
      out(help(commands));
      return 0;
    }
    if (argv[0] === '--version' || argv[0] === '-V' || argv[0] === 'version') {
      out(`bosun ${bosunVersion()}`);
      return 0;
    }
    // A group of commands (`bosun agents`) lists its own; an unknown word under a group says so and lists them.
    const group = groupOf(commands, argv);
    if (group) {
      const rest = argv.slice(group.words.length);
      const list = `Commands under "bosun ${group.words.join(' ')}":\n${commandList(group.commands).join('\n')}\n\nRun "bosun <command> --help" for details.`;
      if (rest.length === 0 || rest[0] === '--help' || rest[0] === '-h') {
        out(list);
        return 0;
      }
      err(`unknown command: bosun ${argv.join(' ')}\n\n${list}`);
      return 2;
    }
    err(`unknown command: ${argv.join(' ')}\n\n${help(commands)}`);
    return 2;
  }
  const rest = argv.slice(command.name.split(' ').length);
  if (rest.includes('--help') || rest.includes('-h')) {
    out(`${command.summary}\n\nUsage: ${command.usage}`);
    return 0;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: command.options ?? {}, allowPositionals: true, strict: true });
  } catch (e) {
    err(`${(e as Error).message}\n\nUsage: ${command.usage}`);
    return 2;
  }
  const bad = badOptionValue(parsed.values);
  if (bad) {
    err(`${bad}\n\nUsage: ${command.usage}`);
    return 2;
  }
  try {
    return await command.run(parsed as { values: Record<string, string | boolean | undefined>; positionals: string[] });
  } catch (e) {
    if (e instanceof ConfigError || e instanceof AppError) {
      err(e.message);
      return 1;
    }
    throw e;
  }
}
