import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../helpers/shared-data.js';

const cli = join(PROJECT_ROOT, 'dist', 'src', 'cli.js');

test('bosun decode reads standard input and prints one JSON object per message, with counters on request', () => {
  const input = ['!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0*4A', 'garbage line', '!AIVDM,1,1,,A,15RTgt0PAso;90TKcjM8h6g208CQ,0*00'].join('\n') + '\n';
  const res = spawnSync(process.execPath, [cli, 'decode', '-', '--stats'], { input, encoding: 'utf8' });
  assert.equal(res.status, 0, res.stderr);
  const lines = res.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.equal(lines.length, 1);
  assert.equal(lines[0].type, 1);
  assert.equal(lines[0].mmsi, 371798000);
  const stats = JSON.parse(res.stderr.trim().split('\n').at(-1)!);
  assert.equal(stats.messages, 1);
  assert.equal(stats.errors.bad_checksum, 1);
  assert.equal(stats.errors.junk_line, 1);
});

test('bosun decode --help and a missing file give a clear answer', () => {
  const help = spawnSync(process.execPath, [cli, 'decode', '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /Usage: bosun decode/);
  const missing = spawnSync(process.execPath, [cli, 'decode', '/nonexistent/file.nmea'], { encoding: 'utf8' });
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /cannot read \/nonexistent\/file.nmea/);
});
