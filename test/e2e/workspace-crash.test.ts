import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { childStore } from '../helpers/child-store.js';
import { PROJECT_ROOT } from '../helpers/shared-data.js';

const CHILD = join(PROJECT_ROOT, 'dist', 'test', 'helpers', 'workspace-child.js');
const AGENT = 'agt_crash0000000000000000';

function start(env: NodeJS.ProcessEnv, ...args: string[]): { child: ChildProcessWithoutNullStreams; lines: string[]; until(pattern: RegExp): Promise<string> } {
  const child = spawn(process.execPath, [CHILD, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let buffer = '';
  let stderr = '';
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => {
    buffer += d;
    let i: number;
    while ((i = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      lines.push(line);
      for (const w of [...waiters]) {
        if (!w.pattern.test(line)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  return {
    child,
    lines,
    until: (pattern) =>
      new Promise((resolve, reject) => {
        const found = lines.find((l) => pattern.test(l));
        if (found) return resolve(found);
        waiters.push({ pattern, resolve });
        child.once('exit', (code) => reject(new Error(`child exited (${code}) before ${pattern}: ${stderr}`)));
      }),
  };
}

test('workspace events survive a killed writer and a killed reader: nothing committed is lost, nothing acknowledged comes back', async () => {
  const store = childStore();
  try {
    // a writer killed at an arbitrary moment: every event it reported written is stored, in order, without gaps
    const producer = start(store.env, 'produce', AGENT);
    await producer.until(/^wrote 40$/);
    producer.child.kill('SIGKILL');
    await once(producer.child, 'exit');
    const reported = producer.lines.filter((l) => l.startsWith('wrote ')).map((l) => Number(l.slice(6)));

    let bosun = await store.open();
    const never = { onCancel: () => undefined };
    let stored = await bosun.ctx.services.workspace.events(AGENT, { after: 0, limit: 100000, timeout: 0 }, never);
    const seqs = stored.items.map((e) => e.seq);
    assert.ok(seqs.length >= reported.length, `stored ${seqs.length}, reported ${reported.length}`);
    assert.deepEqual(
      seqs,
      seqs.map((_, i) => i + 1),
      'sequence 1..n without gaps or duplicates',
    );
    assert.deepEqual(
      stored.items.map((e) => e.payload.n),
      seqs,
      'each event once, in the order written',
    );
    const total = seqs.length;
    await bosun.close();

    // a reader that acknowledged up to 25 and was killed while processing the rest
    const consumer = start(store.env, 'consume', AGENT, '25');
    await consumer.until(/^processing /);
    consumer.child.kill('SIGKILL');
    await once(consumer.child, 'exit');
    assert.equal(consumer.lines[0], `received ${seqs.join(',')}`);
    assert.equal(consumer.lines[2], `processing ${seqs.slice(25).join(',')}`);

    bosun = await store.open();
    stored = await bosun.ctx.services.workspace.events(AGENT, { after: 0, limit: 100000, timeout: 0 }, never);
    assert.deepEqual(
      stored.items.map((e) => e.seq),
      Array.from({ length: total - 25 }, (_, i) => i + 26),
      'the unacknowledged events come again, each once; the acknowledged never',
    );
    const ack = await bosun.ctx.services.workspace.ack(AGENT, { up_to: total });
    assert.deepEqual([ack.acknowledged, ack.pending, ack.last_seq], [total - 25, 0, total]);
    await bosun.ctx.services.workspace.emit(AGENT, 'crash.test', { n: 'after' });
    assert.deepEqual(
      (await bosun.ctx.services.workspace.events(AGENT, { after: 0, limit: 100000, timeout: 0 }, never)).items.map((e) => e.seq),
      [total + 1],
      'the sequence continues after the restarts',
    );
    await bosun.close();
  } finally {
    await store.cleanup();
  }
});
