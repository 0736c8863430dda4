import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startTestApp } from './app.js';
import { launchChromium, saveScreenshot, seriousAxeViolations } from './browser.js';
import { CONSOLE_PASSWORD } from './console-client.js';
import { seedSampleVessel } from './fleet.js';
import { LEGEND } from '../../src/features/map/map-client.js';

/** Every public page and every console view (issue 32: each must fit a 390 px phone). */
export const PUBLIC_PAGES = ['/', '/map', '/agents-forum', '/docs', '/payments', '/console/login'];
export const CONSOLE_VIEWS = [
  '/console',
  '/console/telemetry',
  '/console/agents',
  '/console/operator-requests',
  '/console/moderation',
  '/console/map',
  '/console/feeds',
  '/console/trials',
  '/console/payments',
  '/console/feedback',
  '/console/exchange',
  '/console/routes',
];
export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;

/** How far the page is wider than the viewport (0: no horizontal scroll), and the widest element sticking out. */
async function overflow(page: Page): Promise<{ excess: number; culprit: string | null }> {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: any }).document;
    const width = doc.documentElement.clientWidth as number;
    let culprit: string | null = null;
    let widest = width;
    for (const el of doc.querySelectorAll('body *')) {
      const right = el.getBoundingClientRect().right as number;
      if (right > widest + 0.5) {
        widest = right;
        culprit = `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : ''}`;
      }
    }
    return { excess: Math.max(0, (doc.documentElement.scrollWidth as number) - width), culprit };
  });
}

/**
 * Opens each path at one viewport (signed in to the console first when asked) and collects what does
 * not fit: horizontal overflow, on the phone also axe-core's serious violations; /map is checked further.
 */
export async function checkPages(viewport: (typeof VIEWPORTS)[number], paths: readonly string[], signIn: boolean): Promise<void> {
  const app = await startTestApp({ env: { HOST: '127.0.0.1', PORT: '0' } });
  const browser = await launchChromium();
  try {
    const base = (await app.bosun.listen()).replace('0.0.0.0', '127.0.0.1');
    await app.bosun.ctx.services.operator.setPassword(CONSOLE_PASSWORD);
    const agent = await app.registerAgent('fit-agent', ['vessels:live']);
    await app.api('POST', '/v1/harbor/operator-requests', {
      token: agent.apiKey,
      body: { category: 'access_request', subject: 'Live positions please', body: 'For a berth planner.', requested_scopes: ['vessels:live'] },
    });
    await seedSampleVessel(app.bosun.ctx.services.fleet, app.clock.now());
    const failures: string[] = [];
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, bypassCSP: true });
    const page = await context.newPage();
    if (signIn) {
      await page.goto(base + '/console/login');
      await page.fill('#password', CONSOLE_PASSWORD);
      await Promise.all([page.waitForURL(base + '/console'), page.press('#password', 'Enter')]);
    }
    for (const path of paths) {
      const response = await page.goto(base + path);
      assert.equal(response?.status(), 200, `${path} answers 200`);
      if (path === '/map') await checkMap(page, viewport, failures);
      const { excess, culprit } = await overflow(page);
      if (excess > 0) failures.push(`${viewport.name} ${path}: ${excess} px wider than the screen (widest: ${culprit})`);
      const name = `${viewport.name}-${path === '/' ? 'home' : path.slice(1).replace(/\//g, '-')}`;
      await saveScreenshot(page, name, { fullPage: false });
      if (viewport.name === 'phone') {
        const violations = await seriousAxeViolations(page);
        for (const v of violations) failures.push(`${path}: axe ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      }
    }
    await context.close();
    assert.deepEqual(failures, []);
  } finally {
    await browser.close();
    await app.close();
  }
}

/** /map: the canvas covers at least 70 % of the viewport, the legend has an entry for every layer, search finds a vessel by name. */
async function checkMap(page: Page, viewport: { name: string; width: number; height: number }, failures: string[]): Promise<void> {
  await page.waitForFunction(() => (globalThis as unknown as { bosunMapState?: { loads: number } }).bosunMapState!.loads >= 1, undefined, { timeout: 60_000 });
  const canvas = await page.evaluate(() => {
    const c = (globalThis as unknown as { bosunMap: any }).bosunMap.getCanvas().getBoundingClientRect();
    return { width: c.width as number, height: c.height as number };
  });
  const share = (canvas.width * canvas.height) / (viewport.width * viewport.height);
  if (share < 0.7) failures.push(`${viewport.name} /map: the canvas covers ${(share * 100).toFixed(0)} % of the viewport`);
  const legend = await page.locator('[data-legend]').evaluateAll((els) => els.map((e) => e.getAttribute('data-legend')));
  assert.deepEqual(
    legend,
    LEGEND.map((e) => e.layer),
  );
  for (const layer of ['ports', 'more-ports', 'chokepoints', 'sts', 'congestion', 'simulated', 'vessel-tanker']) assert.ok(legend.includes(layer), `legend entry for ${layer}`);
  await page.fill('#map-q', 'ocean pride');
  await page.press('#map-q', 'Enter');
  await page.locator('#map-card h2', { hasText: 'OCEAN PRIDE' }).waitFor({ timeout: 10_000 });
  assert.match((await page.locator('#map-card').textContent()) ?? '', /Age\s*\d+ (h|min|days) ago/);
  // the screenshot after the flight to the vessel has ended and the map has drawn what it loaded
  await page.waitForFunction(
    () => {
      const map = (globalThis as unknown as { bosunMap: any }).bosunMap;
      return !map.isMoving() && map.loaded();
    },
    undefined,
    { timeout: 30_000 },
  );
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const map = (globalThis as unknown as { bosunMap: any }).bosunMap;
        map.once('idle', () => resolve());
        map.triggerRepaint();
      }),
  );
}
