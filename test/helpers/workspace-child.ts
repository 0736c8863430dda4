// A child process for the workspace crash test (test/e2e/workspace-crash.test.ts): opens the store from
// its environment and either writes events as fast as it can (produce) or receives and acknowledges part
// of them (consume), reporting each step on stdout, until the test kills it.
import { createCore } from '../../src/app/create.js';
import { loadConfig } from '../../src/platform/config.js';

const [mode, agentId, ackArg] = process.argv.slice(2);
const core = await createCore(loadConfig(process.env));
const workspace = core.services.workspace;
const never = { onCancel: () => undefined };

if (mode === 'produce') {
  for (let n = 1; ; n++) {
    await workspace.emit(agentId!, 'crash.test', { n });
    process.stdout.write(`wrote ${n}\n`);
  }
} else if (mode === 'consume') {
  const first = await workspace.events(agentId!, { after: 0, limit: 100000, timeout: 0 }, never);
  process.stdout.write(`received ${first.items.map((e) => e.seq).join(',')}\n`);
  await workspace.ack(agentId!, { up_to: Number(ackArg) });
  process.stdout.write(`acked ${ackArg}\n`);
  const rest = await workspace.events(agentId!, { after: 0, limit: 100000, timeout: 0 }, never);
  // processing these, then killed before acknowledging them
  process.stdout.write(`processing ${rest.items.map((e) => e.seq).join(',')}\n`);
  setInterval(() => undefined, 1000);
} else {
  throw new Error(`unknown mode ${mode}`);
}
