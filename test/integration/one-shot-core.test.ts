import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBosun, createCore } from '../../src/app/create.js';
import { ManualClock } from '../../src/platform/clock.js';
import { TEST_EPOCH, testConfig, usingPostgres } from '../helpers/app.js';
import { identity, ingest, position } from '../helpers/fleet.js';

const MMSI = 538000007;
const IMO = 9811000; // a valid check digit

test('a one-shot core starts nothing: no fleet state in memory, vessels resolved from the store on demand', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-core-'));
  // One store for both processes: a file on SQLite (":memory:" is private to one connection), the test's schema on PostgreSQL.
  const config = usingPostgres() ? testConfig() : testConfig({ DATABASE_URL: `sqlite:${join(dir, 'bosun.db')}` });
  const clock = new ManualClock(TEST_EPOCH);
  try {
    const serving = await createBosun(config, { clock });
    let agentId: string;
    try {
      await ingest(serving.ctx.services.fleet, identity(MMSI, TEST_EPOCH, { imo: IMO, name: 'CORE TEST' }), position(MMSI, TEST_EPOCH, 25, 55));
      agentId = (await serving.ctx.services.agents.register({ name: 'core-test' }, '10.9.9.9')).row.agent_id;
    } finally {
      await serving.close();
    }

    const core = await createCore(config, { clock });
    try {
      assert.equal('http' in core, false, 'no HTTP app is built');
      assert.equal(core.services.fleet.vesselCount, 0, 'no vessel was loaded into memory at start');
      assert.deepEqual(await core.services.harborTasks.listForOperator({ limit: 10 }), []);

      // What `bosun harbor trials grant <agent> IMO:n` does: the vessel is read from the store when needed.
      const { row } = await core.services.trials.grant(agentId, `IMO:${IMO}`, { kind: 'cli' });
      assert.equal(row.mmsi, MMSI);
      assert.match(row.vsl_id ?? '', /^vsl_/);
      assert.equal(core.services.fleet.vesselCount, 1, 'only the vessel the command needed is in memory');
    } finally {
      await core.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
