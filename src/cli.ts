import { parseArgs, type ParseArgsConfig } from 'node:util';
import { createInterface } from 'node:readline';
import { buildCatalogView } from './catalog/catalog.js';
import { loadConfig, ConfigError } from './config.js';
import { createBosun, type Bosun } from './app/create.js';
import { ALL_ROUTES } from './features/index.js';
import { AppError } from './http/errors.js';
import { migrateToLatest, openStore } from './store/db.js';

type Options = NonNullable<ParseArgsConfig['options']>;

interface Command {
  name: string;
  summary: string;
  usage: string;
  options?: Options;
  run(args: { values: Record<string, string | boolean | undefined>; positionals: string[] }): Promise<number>;
}

const out = (line = '') => process.stdout.write(line + '\n');
const err = (line: string) => process.stderr.write(line + '\n');

async function withBosun<T>(fn: (bosun: Bosun) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env);
  const bosun = await createBosun({ ...config, logLevel: config.logLevel === 'info' ? 'warn' : config.logLevel });
  try {
    return await fn(bosun);
  } finally {
    await bosun.close();
  }
}

async function readSecret(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
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

const COMMANDS: Command[] = [
  {
    name: 'serve',
    summary: 'Run the HTTP service (and its jobs) until Ctrl-C.',
    usage: 'bosun serve\n\nConfiguration comes from the environment: HOST, PORT, BOSUN_DATA_DIR, DATABASE_URL, REDIS_URL, … (see README).',
    async run() {
      const config = loadConfig(process.env);
      const bosun = await createBosun(config, { background: true });
      const address = await bosun.listen();
      const store = bosun.ctx.store.describe();
      bosun.ctx.logger.info({ address, store: store.dialect, location: store.location, redis: config.redis !== null }, 'bosun listening');
      out(`bosun ${config.version} listening on ${address} (store: ${store.dialect}${config.redis ? ', redis' : ''})`);
      await new Promise<void>((resolve) => {
        let stopping = false;
        const stop = (signal: string) => {
          if (stopping) {
            err('second signal: exiting now');
            process.exit(1);
          }
          stopping = true;
          out(`${signal}: finishing in-flight requests and flushing buffers…`);
          bosun.close().then(resolve, (e) => {
            err(`shutdown failed: ${(e as Error).message}`);
            resolve();
          });
        };
        process.once('SIGINT', () => stop('SIGINT'));
        process.once('SIGTERM', () => stop('SIGTERM'));
      });
      out('stopped cleanly');
      return 0;
    },
  },
  {
    name: 'migrate',
    summary: 'Apply pending database migrations and exit.',
    usage: 'bosun migrate',
    async run() {
      const config = loadConfig(process.env);
      const store = await openStore(config.database);
      try {
        const applied = await migrateToLatest(store, config.database.kind === 'postgres' ? config.database.schema : undefined);
        out(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      } finally {
        await store.close();
      }
      return 0;
    },
  },
  {
    name: 'operator set-password',
    summary: 'Set the operator password (prompted, or read from standard input).',
    usage: 'bosun operator set-password\n\nPrompts twice on a terminal; otherwise reads the password from standard input (at least 12 characters).',
    async run() {
      const password = await readSecret('operator password: ');
      if (process.stdin.isTTY) {
        const again = await readSecret('repeat password: ');
        if (again !== password) {
          err('passwords differ; nothing changed');
          return 1;
        }
      }
      await withBosun((b) => b.ctx.services.operator.setPassword(password));
      out('operator password set');
      return 0;
    },
  },
  {
    name: 'operator token',
    summary: 'Issue an operator token for the CLI and automation (printed once).',
    usage: 'bosun operator token [--label NAME]',
    options: { label: { type: 'string', default: 'cli' } },
    async run({ values }) {
      const { token, prefix } = await withBosun((b) => b.ctx.services.operator.issueToken(String(values.label)));
      err(`operator token ${prefix}… issued; it is shown only now. Use it as "Authorization: Bearer <token>".`);
      out(token);
      return 0;
    },
  },
  {
    name: 'operator tokens',
    summary: 'List operator tokens (prefixes only).',
    usage: 'bosun operator tokens',
    async run() {
      const rows = await withBosun((b) => b.ctx.services.operator.listTokens());
      for (const r of rows) out(`${r.token_prefix}…  ${r.label}  created ${new Date(r.created_at).toISOString()}${r.revoked_at ? '  REVOKED' : ''}`);
      return 0;
    },
  },
  {
    name: 'operator revoke-token',
    summary: 'Revoke an operator token by its prefix.',
    usage: 'bosun operator revoke-token <prefix>',
    async run({ positionals }) {
      const prefix = positionals[0];
      if (!prefix) throw new AppError('invalid_request', 'give the token prefix (see bosun operator tokens)');
      const ok = await withBosun((b) => b.ctx.services.operator.revokeToken(prefix));
      out(ok ? 'revoked' : 'no active token with that prefix');
      return ok ? 0 : 1;
    },
  },
  {
    name: 'agents list',
    summary: 'List agents (newest first).',
    usage: 'bosun agents list [--limit N] [--state STATE]',
    options: { limit: { type: 'string', default: '50' }, state: { type: 'string' } },
    async run({ values }) {
      const rows = await withBosun((b) => b.ctx.services.agents.list({ limit: Number(values.limit), state: values.state as string | undefined }));
      for (const r of rows) out(`${r.agent_id}  ${r.state}${r.revoked_at ? ' (revoked)' : ''}  ${r.name}  ${r.key_prefix}…  ${new Date(r.created_at).toISOString()}`);
      return 0;
    },
  },
  {
    name: 'agents rotate-key',
    summary: "Replace an agent's API key; the old key stops working at once. Prints the new key once.",
    usage: 'bosun agents rotate-key <agent_id>',
    async run({ positionals }) {
      const id = positionals[0];
      if (!id) throw new AppError('invalid_request', 'give the agent id');
      const { apiKey } = await withBosun((b) => b.ctx.services.agents.rotateKey(id, { kind: 'cli' }));
      err(`new key for ${id}; shown only now`);
      out(apiKey);
      return 0;
    },
  },
  {
    name: 'agents revoke',
    summary: 'Revoke an agent: its key stops working.',
    usage: 'bosun agents revoke <agent_id> [--reason TEXT]',
    options: { reason: { type: 'string', default: 'revoked by operator' } },
    async run({ positionals, values }) {
      const id = positionals[0];
      if (!id) throw new AppError('invalid_request', 'give the agent id');
      await withBosun((b) => b.ctx.services.agents.revoke(id, { kind: 'cli' }, String(values.reason)));
      out(`revoked ${id}`);
      return 0;
    },
  },
  {
    name: 'agents grant',
    summary: 'Grant a scope to an agent (optionally for N days).',
    usage: 'bosun agents grant <agent_id> <scope> [--days N]',
    options: { days: { type: 'string' } },
    async run({ positionals, values }) {
      const [id, scope] = positionals;
      if (!id || !scope) throw new AppError('invalid_request', 'give the agent id and the scope');
      const days = values.days === undefined ? undefined : Number(values.days);
      const grant = await withBosun((b) => b.ctx.services.agents.grantScope(id, scope, { kind: 'cli' }, days));
      out(`granted ${grant.scope} to ${id}${grant.expires_at ? ` until ${grant.expires_at}` : ''}`);
      return 0;
    },
  },
  {
    name: 'agents revoke-scope',
    summary: 'Remove a scope from an agent.',
    usage: 'bosun agents revoke-scope <agent_id> <scope>',
    async run({ positionals }) {
      const [id, scope] = positionals;
      if (!id || !scope) throw new AppError('invalid_request', 'give the agent id and the scope');
      const removed = await withBosun((b) => b.ctx.services.agents.revokeScope(id, scope, { kind: 'cli' }));
      out(removed ? `removed ${scope} from ${id}` : `${id} did not hold ${scope}`);
      return 0;
    },
  },
  {
    name: 'catalog',
    summary: 'Print implemented and planned operation counts per section.',
    usage: 'bosun catalog [--json] [--planned]',
    options: { json: { type: 'boolean' }, planned: { type: 'boolean' } },
    async run({ values }) {
      const view = buildCatalogView(ALL_ROUTES);
      const counts = view.counts();
      if (values.json) {
        out(JSON.stringify({ total: view.all.length, implemented: view.implemented.length, planned: view.planned.length, sections: counts }, null, 2));
        return 0;
      }
      out('section      implemented  planned');
      for (const c of counts) out(`${c.section.padEnd(12)} ${String(c.implemented).padStart(11)}  ${String(c.planned).padStart(7)}`);
      out(`${'total'.padEnd(12)} ${String(view.implemented.length).padStart(11)}  ${String(view.planned.length).padStart(7)}   (${view.all.length} operations)`);
      if (values.planned) for (const e of view.planned) out(`  planned: ${e.method} ${e.path}`);
      return 0;
    },
  },
];

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return ['bosun — open maritime information service for software agents', '', 'Commands:', ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`), '', 'Run "bosun <command> --help" for details.'].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const command = COMMANDS.filter((c) => {
    const words = c.name.split(' ');
    return words.every((w, i) => argv[i] === w);
  }).sort((a, b) => b.name.length - a.name.length)[0];
  if (!command) {
    if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
      out(help());
      return 0;
    }
    err(`unknown command: ${argv.join(' ')}\n\n${help()}`);
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    err(`bosun: ${(e as Error).stack ?? e}`);
    process.exitCode = 1;
  },
);
