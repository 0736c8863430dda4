/**
 * resource_infra: full ingest of every shipped source into a fresh SQLite store (time, peak RSS, peak
 * heap sampled every 20 ms and, with --expose-gc, the live heap after a collection every 250 ms),
 * then bbox queries over the full layer: the flatbush index against a walk over every object's box
 * (the baseline), then the whole layer as GeoJSON: streamed in chunks (format=stream) against built
 * whole in memory and serialised (the baseline), peak heap above the same collected start.
 * Usage: node --expose-gc dist/bench/infra/infra-main.js [--rounds 200]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { createCore } from '../../src/app/create.js';
import { loadConfig } from '../../src/platform/config.js';
import { buildLayerIndex } from '../../src/features/resource-infra/layer-index.js';
import { createInfraRepo } from '../../src/features/resource-infra/infra-repo.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '200' } } });
const gc = (globalThis as { gc?: () => void }).gc;
const MB = (bytes: number) => (bytes / 1048576).toFixed(0);
const rounds = Number(values.rounds);
const dir = mkdtempSync(join(tmpdir(), 'bosun-infra-bench-'));
const config = loadConfig({ ...process.env, BOSUN_DATA_DIR: dir, BOSUN_LOG_LEVEL: 'warn' } as Record<string, string>);
const core = await createCore(config);
try {
  const peak = { heap: 0, rss: 0, live: 0 };
  const sample = () => {
    const m = process.memoryUsage();
    peak.heap = Math.max(peak.heap, m.heapUsed);
    peak.rss = Math.max(peak.rss, m.rss);
  };
  const sampler = setInterval(sample, 20);
  const collector = gc
    ? setInterval(() => {
        gc();
        peak.live = Math.max(peak.live, process.memoryUsage().heapUsed);
      }, 250)
    : null;
  const t0 = performance.now();
  const { reports } = await core.services.resourceInfra.ingest({});
  const ingestMs = performance.now() - t0;
  sample();
  clearInterval(sampler);
  if (collector) clearInterval(collector);
  const rows = reports.reduce((a, r) => a + r.rows_read, 0);
  console.log(
    `full ingest: ${reports.length} sources, ${rows} rows, ${reports.at(-1)!.objects_after} objects in ${(ingestMs / 1000).toFixed(1)} s; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (sampled ${MB(peak.rss)} MB), peak heap used ${MB(peak.heap)} MB${gc ? `, peak live heap ${MB(peak.live)} MB` : ''}`,
  );

  const repo = createInfraRepo(core.store.db);
  const layer = buildLayerIndex(1, await repo.objects());
  const boxes = [
    { name: 'North Sea (-4,51,9,58)', box: [-4, 51, 9, 58] as [number, number, number, number] },
    { name: 'Gulf of Mexico (-98,18,-80,31)', box: [-98, 18, -80, 31] as [number, number, number, number] },
    { name: 'Singapore strait (103,1,105,2)', box: [103, 1, 105, 2] as [number, number, number, number] },
  ];
  const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  console.log('| query | hits | index p50 ms | index p99 ms | walk p50 ms | walk p99 ms | walk/index (p50) |');
  console.log('|---|---|---|---|---|---|---|');
  for (const { name, box } of boxes) {
    const timed = (fn: () => number) => {
      const times: number[] = [];
      let hits = 0;
      for (let i = 0; i < rounds; i++) {
        const s = performance.now();
        hits = fn();
        times.push(performance.now() - s);
      }
      return { hits, times: times.sort((a, b) => a - b) };
    };
    const index = timed(() => layer.query({ bbox: box }).length);
    const walk = timed(
      () => layer.objects.filter((o) => o.body.bbox[0] <= box[2] && o.body.bbox[2] >= box[0] && o.body.bbox[1] <= box[3] && o.body.bbox[3] >= box[1]).sort((a, b) => (a.id < b.id ? -1 : 1)).length,
    );
    if (index.hits !== walk.hits) throw new Error(`${name}: index ${index.hits} hits, walk ${walk.hits}`);
    console.log(
      `| ${name} | ${index.hits} | ${pct(index.times, 50).toFixed(3)} | ${pct(index.times, 99).toFixed(3)} | ${pct(walk.times, 50).toFixed(3)} | ${pct(walk.times, 99).toFixed(3)} | ${(pct(walk.times, 50) / pct(index.times, 50)).toFixed(1)} |`,
    );
  }

  // the whole layer as GeoJSON: streamed in chunks into a sink that drains like a socket, against built whole
  if (!gc) console.log('(run with --expose-gc for the GeoJSON memory comparison)');
  else {
    const infra = core.services.resourceInfra;
    const heapAbove = async (fn: (sampleNow: () => void) => Promise<number>) => {
      gc();
      const base = process.memoryUsage().heapUsed;
      let top = base;
      // what is retained at that point (a collection first): garbage of the serialisation is not memory held
      const sampleNow = () => {
        gc();
        top = Math.max(top, process.memoryUsage().heapUsed);
      };
      const t = performance.now();
      const bytes = await fn(sampleNow);
      sampleNow();
      return { mb: (top - base) / 1048576, ms: performance.now() - t, bytes };
    };
    const streamed = await heapAbove(async (sampleNow) => {
      const sink = new Writable({ highWaterMark: 1 << 20, write: (_chunk, _enc, done) => setImmediate(done) });
      let bytes = 0;
      let chunks = 0;
      for (const chunk of (await infra.layerGeojsonStream({}, false)).chunks) {
        bytes += Buffer.byteLength(chunk);
        if (!sink.write(chunk)) await new Promise((resolve) => sink.once('drain', resolve));
        if (++chunks % 5 === 0) sampleNow();
      }
      sink.end();
      return bytes;
    });
    const built = await heapAbove(async (sampleNow) => {
      const collection = await infra.layerGeojson({ limit: Number.MAX_SAFE_INTEGER }, false);
      sampleNow();
      const text = JSON.stringify(collection);
      sampleNow();
      return Buffer.byteLength(text);
    });
    console.log('| whole layer GeoJSON | bytes | peak live heap above start MB (collected at each sample) | ms |');
    console.log('|---|---|---|---|');
    console.log(`| streamed in chunks (format=stream) | ${streamed.bytes} | ${streamed.mb.toFixed(1)} | ${streamed.ms.toFixed(0)} |`);
    console.log(`| built in memory, then serialised (baseline) | ${built.bytes} | ${built.mb.toFixed(1)} | ${built.ms.toFixed(0)} |`);
  }
} finally {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
}
