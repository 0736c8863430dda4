import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, Response } from 'playwright-core';
import { HOUR, MINUTE } from '../../src/platform/clock.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { chromiumSkip, launchChromium, saveScreenshot, seriousAxeViolations } from '../helpers/browser.js';
import { identity, imo, ingest, position, seedSampleVessel } from '../helpers/fleet.js';

const skip = chromiumSkip();
const DELAY_MS = 50_400 * 1000;
const PASSWORD = 'a long operator password for the map';

/**
 * First load of /map, in bytes transferred (headers and bodies as sent, gzip where the page layer
 * serves it): HTML, CSS, MapLibre's module and worker, the map script, the basemap and the layer data.
 * Measured 2026-11-24: see docs/web.md#map.
 */
const FIRST_LOAD_BUDGET_BYTES = 1_000_000;

interface VesselFeature {
  geometry: { coordinates: [number, number] };
  properties: { name: string | null; observed_at: string; delayed: boolean; simulated: boolean; category: string };
}

/** OCEAN PRIDE (tanker: 20 h old and 10 min old fixes), a cargo ship in the North Sea, a simulated passenger ship. */
async function seed(app: TestApp): Promise<void> {
  const fleet = app.bosun.ctx.services.fleet;
  const now = app.clock.now();
  await seedSampleVessel(fleet, now);
  await ingest(
    fleet,
    identity(244010001, now - 30 * HOUR, { imo: imo(981100), name: 'NORTH SEA TRADER', shipType: 70 }),
    position(244010001, now - 30 * HOUR, 53.5, 3.2, { heading: 45 }),
    position(244010001, now - 5 * MINUTE, 54.1, 4.0, { heading: 40 }),
    identity(999000001, now - 20 * HOUR, { name: 'DEMO FERRY', shipType: 60, simulated: true, source: 'sim:demo' }),
    position(999000001, now - 16 * HOUR, 36.0, 14.5, { heading: null, cog: 270, simulated: true, source: 'sim:demo' }),
  );
}

async function serve(): Promise<{ app: TestApp; base: string }> {
  const app = await startTestApp({ env: { HOST: '127.0.0.1', PORT: '0' } });
  await seed(app);
  const base = (await app.bosun.listen()).replace('0.0.0.0', '127.0.0.1');
  return { app, base };
}

/** Waits until the vessel layer has loaded and the given number of vessel symbols are rendered. */
async function renderedVessels(page: Page, count: number): Promise<string[]> {
  await page.waitForFunction(
    (n) => {
      const w = globalThis as unknown as { bosunMap?: any; bosunMapState?: { loads: number } };
      if (!w.bosunMap || !w.bosunMapState || w.bosunMapState.loads < 1 || !w.bosunMap.loaded()) return false;
      return w.bosunMap.queryRenderedFeatures({ layers: ['vessels'] }).length >= n;
    },
    count,
    { timeout: 60_000 },
  );
  return page.evaluate(() => {
    const map = (globalThis as unknown as { bosunMap: any }).bosunMap;
    return (map.queryRenderedFeatures({ layers: ['vessels'] }) as Array<{ properties: { name: string } }>).map((f) => f.properties.name).sort();
  });
}

/** Clicks the vessel symbol at a position: the map is centred on it first (the panels float over the map's edges), then it projects it to the canvas. */
async function clickAt(page: Page, lonLat: [number, number]): Promise<void> {
  await page.evaluate((ll) => (globalThis as unknown as { bosunMap: any }).bosunMap.jumpTo({ center: ll }), lonLat);
  await page.waitForFunction(() => (globalThis as unknown as { bosunMap: any }).bosunMap.loaded());
  const point = await page.evaluate((ll) => {
    const map = (globalThis as unknown as { bosunMap: any }).bosunMap;
    const p = map.project(ll);
    const r = map.getCanvas().getBoundingClientRect();
    return { x: r.left + p.x, y: r.top + p.y };
  }, lonLat);
  await page.mouse.click(point.x, point.y);
}

test('anonymous /map renders delayed vessel symbols, opens the vessel card, never receives a fresher position; size budget, axe, screenshot', { skip }, async () => {
  const { app, base } = await serve();
  const browser = await launchChromium();
  try {
    const now = app.clock.now();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const responses: Response[] = [];
    page.on('response', (r) => responses.push(r));
    const response = await page.goto(base + '/map');
    assert.equal(response?.status(), 200);

    const names = await renderedVessels(page, 3);
    assert.deepEqual(names, ['DEMO FERRY', 'NORTH SEA TRADER', 'OCEAN PRIDE']);

    // every vessel layer the anonymous page received holds positions at least the preview delay old
    const vesselResponses = responses.filter((r) => new URL(r.url()).pathname === '/map/data/vessels.geojson');
    assert.ok(vesselResponses.length >= 1);
    for (const r of vesselResponses) {
      const fc = (await r.json()) as { features: VesselFeature[]; viewer: string };
      assert.equal(fc.viewer, 'anonymous');
      for (const f of fc.features) {
        assert.ok(Date.parse(f.properties.observed_at) <= now - DELAY_MS, `${f.properties.name} at ${f.properties.observed_at} is fresher than the preview delay`);
        assert.equal(f.properties.delayed, true);
      }
      const pride = fc.features.find((f) => f.properties.name === 'OCEAN PRIDE')!;
      assert.deepEqual(pride.geometry.coordinates, [103.7, 1.2], 'the 20-hour-old fix, not the 10-minute-old one');
    }
    // nothing else the page loaded carries the live fixes' times either
    const fresh = [new Date(now - 10 * MINUTE).toISOString(), new Date(now - 5 * MINUTE).toISOString()];
    for (const r of responses) {
      const type = r.headers()['content-type'] ?? '';
      if (!/json/.test(type)) continue;
      const text = await r.text();
      for (const t of fresh) assert.ok(!text.includes(t), `${r.url()} carries a live position time ${t}`);
    }

    // the vessel card: name, identifiers and the delayed label
    await clickAt(page, [103.7, 1.2]);
    const card = page.locator('#map-card');
    await card.locator('h2', { hasText: 'OCEAN PRIDE' }).waitFor({ timeout: 10_000 });
    const cardText = (await card.textContent()) ?? '';
    assert.match(cardText, /563033300/);
    assert.match(cardText, /9811000/);
    assert.match(cardText, /tanker/);
    assert.match(cardText, /delayed/);
    assert.doesNotMatch(cardText, /simulated/i);

    await clickAt(page, [14.5, 36.0]);
    await card.locator('h2', { hasText: 'DEMO FERRY' }).waitFor({ timeout: 10_000 });
    assert.match((await card.textContent()) ?? '', /simulated/);
    assert.doesNotMatch((await card.textContent()) ?? '', /undefined/, 'a heading not reported is left out');
    assert.match((await page.locator('#map-status').textContent()) ?? '', /3 vessels: positions, delayed by at least 50,400 s.*1 simulated/);

    // first load in bytes transferred (a byte count, not a timing)
    let transferred = 0;
    const parts: string[] = [];
    for (const r of responses) {
      const sizes = await r.request().sizes();
      // a worker's own fetch reports no body size: its content-length is what was sent
      const body = Math.max(sizes.responseBodySize, Number(r.headers()['content-length'] ?? 0));
      transferred += body + sizes.responseHeadersSize;
      parts.push(`${new URL(r.url()).pathname} ${body}`);
    }
    console.log(`first load of /map: ${transferred} bytes transferred in ${responses.length} responses (${parts.join(', ')})`);
    assert.ok(transferred <= FIRST_LOAD_BUDGET_BYTES, `first load ${transferred} bytes over the budget of ${FIRST_LOAD_BUDGET_BYTES}`);
    const maplibre = responses.find((r) => r.url().endsWith('/assets/map/maplibre-gl.mjs'))!;
    assert.equal(maplibre.headers()['content-encoding'], 'gzip');

    // names at close zoom: none at world zoom, the vessel's name beside its symbol at harbour zoom
    assert.equal(await page.locator('.vessel-label').count(), 0, 'no names at the zoom the page opens at');
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const map = (globalThis as unknown as { bosunMap: any }).bosunMap;
          map.once('idle', () => setTimeout(resolve, 0));
          map.jumpTo({ center: [103.7, 1.2], zoom: 10 });
        }),
    );
    await page.locator('.vessel-label', { hasText: 'OCEAN PRIDE' }).waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('.map-labels').getAttribute('aria-hidden'), 'true');
    // at that zoom the 1:10m coast of the view replaces the 1:50m land
    await page.waitForFunction(() => (globalThis as unknown as { bosunMapState: { coast: string | null } }).bosunMapState.coast !== null, undefined, { timeout: 30_000 });
    const layers = await page.evaluate(() => {
      const map = (globalThis as unknown as { bosunMap: any }).bosunMap;
      return [map.getLayoutProperty('coast', 'visibility'), map.getLayoutProperty('land', 'visibility'), (globalThis as unknown as { bosunMapState: { coast: string } }).bosunMapState.coast];
    });
    assert.deepEqual(layers.slice(0, 2), ['visible', 'none']);
    assert.match(String(layers[2]), /^10\d,-?\d+,10\d,\d+$/, 'a grid box around Singapore');
    await page.evaluate(() => new Promise<void>((resolve) => (globalThis as unknown as { bosunMap: any }).bosunMap.once('idle', () => resolve())));
    await saveScreenshot(page, 'map-harbour');

    // the screenshot shows two of the vessels up close (Europe), with the ferry's card open
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const map = (globalThis as unknown as { bosunMap: any }).bosunMap;
          map.once('idle', () => resolve());
          map.jumpTo({ center: [9, 46], zoom: 3.3 });
        }),
    );
    await saveScreenshot(page, 'map');

    // axe-core is injected as an inline script, which the page's CSP refuses: checked in a context that bypasses it
    const axeContext = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const axePage = await axeContext.newPage();
    await axePage.goto(base + '/map');
    await renderedVessels(axePage, 3);
    const violations = await seriousAxeViolations(axePage);
    assert.deepEqual(violations, [], JSON.stringify(violations, null, 1));
  } finally {
    await browser.close();
    await app.close();
  }
});

test('the signed-in operator sees live positions on /console/map; its data needs the session', { skip }, async () => {
  const { app, base } = await serve();
  const browser = await launchChromium();
  try {
    const now = app.clock.now();
    await app.bosun.ctx.services.operator.setPassword(PASSWORD);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const anonymous = await page.request.get(base + '/console/map/data/vessels.geojson');
    assert.equal(anonymous.status(), 401, 'no live data without the console session');

    await page.goto(base + '/console');
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL(base + '/console'), page.click('button[type=submit]')]);
    const live = page.waitForResponse((r) => new URL(r.url()).pathname === '/console/map/data/vessels.geojson');
    await page.goto(base + '/console/map');
    const fc = (await (await live).json()) as { features: VesselFeature[]; viewer: string };
    assert.equal(fc.viewer, 'operator');
    const pride = fc.features.find((f) => f.properties.name === 'OCEAN PRIDE')!;
    assert.equal(pride.properties.observed_at, new Date(now - 10 * MINUTE).toISOString());
    assert.equal(pride.properties.delayed, false);

    await renderedVessels(page, 3);
    await clickAt(page, [103.8, 1.25]);
    const card = page.locator('#map-card');
    await card.locator('h2', { hasText: 'OCEAN PRIDE' }).waitFor({ timeout: 10_000 });
    const text = (await card.textContent()) ?? '';
    assert.match(text, /live/);
    assert.doesNotMatch(text, /delayed/);
    assert.match((await page.locator('#map-status').textContent()) ?? '', /3 vessels: live positions/);
  } finally {
    await browser.close();
    await app.close();
  }
});
