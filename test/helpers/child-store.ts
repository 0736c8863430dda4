// A store that CLI commands and child processes open by configuration (a SQLite file, or a fresh
// PostgreSQL schema), and a way to open it from the test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBosun, type Bosun } from '../../src/app/create.js';
import { loadConfig } from '../../src/platform/config.js';
import { dropTestSchema, testConfig } from './app.js';

/** A store for child processes (a SQLite file, or a fresh PostgreSQL schema) and a way to open it here. */
export function childStore() {
  const base = testConfig();
  const dir = mkdtempSync(join(tmpdir(), 'bosun-feeds-'));
  const env: Record<string, string> = { LOG_LEVEL: 'warn', BOSUN_DATA_DIR: dir };
  if (base.database.kind === 'postgres') Object.assign(env, { DATABASE_URL: base.database.url, BOSUN_PG_SCHEMA: base.database.schema });
  else env.DATABASE_URL = `sqlite:${join(dir, 'bosun.sqlite')}`;
  return {
    env: { ...process.env, ...env },
    dir,
    open: (): Promise<Bosun> => createBosun(loadConfig({ ...env, LOG_LEVEL: 'silent' })),
    cleanup: async () => {
      rmSync(dir, { recursive: true, force: true });
      await dropTestSchema(base);
    },
  };
}

export async function positionsOf(bosun: Bosun, mmsi?: number): Promise<number> {
  let query = bosun.ctx.store.db
    .selectFrom('positions')
    .innerJoin('vessels', 'vessels.vsl_id', 'positions.vsl_id')
    .select((eb) => eb.fn.countAll<number>().as('n'));
  if (mmsi !== undefined) query = query.where('vessels.mmsi', '=', mmsi as never);
  return Number((await query.executeTakeFirstOrThrow()).n);
}
