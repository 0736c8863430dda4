import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMMAND_MODULES, loadCommands } from '../../src/cli/commands.js';

test('every command module names its commands by one of its declared first words, so the command line finds them', async () => {
  for (const module of COMMAND_MODULES) {
    const commands = await module.load();
    assert.ok(commands.length > 0);
    for (const command of commands) assert.ok(module.words.includes(command.name.split(' ')[0]!), `${command.name} is not under ${module.words.join('|')}`);
  }
});

test('a first word loads only the modules that can name it; help and unknown words load every command', async () => {
  const all = await loadCommands(undefined);
  assert.deepEqual(
    (await loadCommands('decode')).map((c) => c.name),
    ['decode'],
  );
  assert.ok((await loadCommands('harbor')).every((c) => c.name.startsWith('harbor ')));
  assert.equal((await loadCommands('--help')).length, all.length);
  assert.equal((await loadCommands('no-such-command')).length, all.length);
  assert.equal(new Set(all.map((c) => c.name)).size, all.length, 'command names are unique');
});
