import assert from 'node:assert/strict';
import test from 'node:test';
import { childStore } from '../helpers/child-store.js';
import { runCli } from '../helpers/cli.js';
import { sharedDataPath } from '../helpers/shared-data.js';

const coal = sharedDataPath('infra/gem-coal-terminals/Coal_Terminals-map-file-2025-01-15.csv');

test(
  'bosun layers ingest resource_infra: a fresh store gets the shipped layer, the ingest of one source updates it; again, nothing changes; bad arguments answered clearly',
  { skip: coal.skip },
  async () => {
    const store = childStore();
    try {
      const cli = (...args: string[]) => runCli(['layers', 'ingest', ...args], { env: { ...store.env, LOG_LEVEL: 'silent' } });
      const first = await cli('resource_infra', '--source', 'gem_gctt');
      assert.equal(first.status, 0, first.stderr);
      // runs 1-8 loaded the built layer file (docs/decisions/090); the source file holds the same terminals
      assert.match(first.stdout, /^gem_gctt: run 9, 521 rows in/m);
      assert.match(first.stdout, /created 0, updated 0, unchanged 466, removed 0, failed rows 2/);
      assert.match(first.stdout, /layer objects now 11,230/);
      assert.match(first.stderr, /gem_gctt: reading/);
      const again = await cli('resource_infra', '--source', 'gem_gctt', '--file', coal.path, '--json');
      assert.equal(again.status, 0, again.stderr);
      const report = JSON.parse(again.stdout).reports[0];
      assert.deepEqual([report.run_id, report.created, report.updated, report.unchanged, report.shipped_file], [10, 0, 0, 466, false]);
      const wrongLayer = await cli('ports');
      assert.equal(wrongLayer.status, 2);
      assert.match(wrongLayer.stderr, /usage: bosun layers ingest resource_infra/);
      const unknown = await cli('resource_infra', '--source', 'nope');
      assert.equal(unknown.status, 1);
      assert.match(unknown.stderr, /unknown source nope; declared: gem_ggit_lng/);
      const fileWithoutSource = await cli('resource_infra', '--file', coal.path);
      assert.equal(fileWithoutSource.status, 1);
      assert.match(fileWithoutSource.stderr, /--file needs --source/);
    } finally {
      await store.cleanup();
    }
  },
);
