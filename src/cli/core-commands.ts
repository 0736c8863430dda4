import { err, out, type Command } from '../cli-kit/kit.js';
import { cliIo } from '../cli-kit/io.js';

export const coreCommands: Command[] = [
  {
    name: 'serve',
    summary: 'Run the HTTP service (and its jobs) until Ctrl-C.',
    usage: 'bosun serve\n\nConfiguration comes from the environment: HOST, PORT, BOSUN_DATA_DIR, DATABASE_URL, REDIS_URL, … (see README).',
    async run() {
      const [{ loadConfig }, { createBosun }] = await Promise.all([import('../platform/config.js'), import('../app/create.js')]);
      const config = loadConfig(cliIo().env);
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
      const [{ loadConfig }, { openMigratedStore }] = await Promise.all([import('../platform/config.js'), import('../store/db.js')]);
      const config = loadConfig(cliIo().env);
      const { store, applied } = await openMigratedStore(config.database);
      try {
        out(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      } finally {
        await store.close();
      }
      return 0;
    },
  },
  {
    name: 'catalog',
    summary: 'Print implemented and planned operation counts per section.',
    usage: 'bosun catalog [--json] [--planned]',
    options: { json: { type: 'boolean' }, planned: { type: 'boolean' } },
    async run({ values }) {
      const [{ buildCatalogView }, { ALL_ROUTES }] = await Promise.all([import('../catalog/catalog.js'), import('../features/index.js')]);
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
