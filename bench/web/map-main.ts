/**
 * The live map with many vessels (issue 16): a real Bosun with N vessels (positions 20 h old, so the
 * anonymous map shows them all), /map opened in Debian's Chromium (software WebGL: --disable-gpu).
 * Measured:
 * - server: building /map/data/vessels.geojson (first build, then a cached answer), its size raw and gzipped;
 * - browser, update cost: `setData` of the vessel source until the map is idle again, for 0 (the
 *   baseline), 1,000 and N vessels, `--rounds` times each, median;
 * - browser, frame time: requestAnimationFrame intervals during a 2 s pan with 0 and N vessels (p50/p95).
 *
 * Usage: node dist/bench/web/map-main.js [--vessels 10000] [--rounds 5]
 */
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { createBosun } from '../../src/app/create.js';
import { loadConfig } from '../../src/platform/config.js';
import { launchChromium } from '../../test/helpers/browser.js';

const { values } = parseArgs({ options: { vessels: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '5' } } });
const N = Number(values.vessels);
const ROUNDS = Number(values.rounds);
const round = (n: number) => Math.round(n * 10) / 10;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const config = loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'error', HOST: '127.0.0.1', PORT: '0', BOSUN_MAX_CONNECTIONS_PER_ADDRESS: '0' });
  const app = await createBosun(config);
  const fleet = app.ctx.services.fleet;
  const at = Date.now() - 20 * 3_600_000;
  // a deterministic spread over the oceans' latitudes, every ship type, headings all round
  for (let i = 0; i < N; i++) {
    const mmsi = 200_000_000 + i;
    const lat = -60 + ((i * 37) % 12_000) / 100;
    const lon = -180 + ((i * 7919) % 36_000) / 100;
    fleet.acceptStatic({
      mmsi,
      imo: null,
      name: `BENCH ${i}`,
      callsign: null,
      shipType: 30 + (i % 60),
      lengthM: null,
      beamM: null,
      draughtM: null,
      destination: null,
      eta: null,
      observedAt: at,
      receivedAt: at,
      source: 'bench',
      simulated: true,
    });
    fleet.acceptPosition({ mmsi, lat, lon, sog: 10, cog: (i * 13) % 360, heading: (i * 13) % 360, navStatus: 0, msgType: 1, observedAt: at, receivedAt: at, source: 'bench', simulated: true });
  }
  await fleet.flush();
  const base = (await app.listen()).replace('0.0.0.0', '127.0.0.1');

  let t = performance.now();
  const first = await (await fetch(base + '/map/data/vessels.geojson')).text();
  const firstMs = performance.now() - t;
  t = performance.now();
  await (await fetch(base + '/map/data/vessels.geojson')).text();
  const cachedMs = performance.now() - t;
  const features = (JSON.parse(first) as { features: unknown[] }).features.length;
  console.log(`server: ${features} vessels in /map/data/vessels.geojson; first build ${round(firstMs)} ms, cached ${round(cachedMs)} ms; ${first.length} bytes, ${gzipSync(first).length} gzipped`);

  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(base + '/map');
    await page.waitForFunction(
      () => {
        const w = globalThis as unknown as { bosunMap?: { loaded(): boolean }; bosunMapState?: { loads: number } };
        return Boolean(w.bosunMap?.loaded() && w.bosunMapState && w.bosunMapState.loads > 0);
      },
      undefined,
      { timeout: 300_000 },
    );
    // the page's own refresh (every 15 s) would replace the data under measurement: its requests are refused from here on
    await page.route(/\/map\/data\/(vessels|events)\.geojson$/, (route) => route.abort());
    const result = await page.evaluate(
      async ({ n, rounds }) => {
        const map = (globalThis as unknown as { bosunMap: any }).bosunMap;
        const all = (await (await fetch('/map/data/vessels.geojson?bench')).json()) as { type: string; features: unknown[] };
        const source = map.getSource('vessels');
        const idle = () => new Promise<void>((resolve) => map.once('idle', () => resolve()));
        const setAndWait = async (count: number) => {
          const data = { type: 'FeatureCollection', features: all.features.slice(0, count) };
          const start = performance.now();
          const done = idle();
          source.setData(data);
          map.triggerRepaint();
          await done;
          return performance.now() - start;
        };
        const update: Record<string, number[]> = {};
        for (const count of [0, Math.min(1000, n), n]) {
          update[count] = [];
          for (let r = 0; r < rounds; r++) {
            await setAndWait(0);
            update[count]!.push(await setAndWait(count));
          }
        }
        const frames = async (count: number) => {
          await setAndWait(count);
          const gaps: number[] = [];
          let last = performance.now();
          let running = true;
          const tick = (now: number) => {
            gaps.push(now - last);
            last = now;
            if (running) requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
          map.panBy([600, 0], { duration: 2000, easing: (x: number) => x });
          await new Promise((r) => setTimeout(r, 2100));
          running = false;
          const sorted = gaps.slice(1).sort((a, b) => a - b);
          return { frames: sorted.length, p50: sorted[Math.floor(sorted.length / 2)]!, p95: sorted[Math.floor(sorted.length * 0.95)]! };
        };
        return { update, panEmpty: await frames(0), panFull: await frames(n), rendered: map.queryRenderedFeatures({ layers: ['vessels'] }).length };
      },
      { n: features, rounds: ROUNDS },
    );
    for (const [count, times] of Object.entries(result.update)) {
      const base0 = median(result.update['0']!);
      console.log(`browser setData ${count} vessels → idle: median ${round(median(times))} ms (runs ${times.map(round).join(', ')}); ratio to 0 vessels ${round(median(times) / base0)}`);
    }
    console.log(`browser pan 2 s, 0 vessels: ${result.panEmpty.frames} frames, frame time p50 ${round(result.panEmpty.p50)} ms, p95 ${round(result.panEmpty.p95)} ms`);
    console.log(
      `browser pan 2 s, ${features} vessels: ${result.panFull.frames} frames, frame time p50 ${round(result.panFull.p50)} ms, p95 ${round(result.panFull.p95)} ms (p50 ratio ${round(result.panFull.p50 / result.panEmpty.p50)}); ${result.rendered} symbols rendered in view`,
    );
  } finally {
    await browser.close();
    await app.close();
  }
}

await main();
