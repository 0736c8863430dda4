import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startTestApp } from '../helpers/app.js';
import { chromiumSkip, launchChromium, saveScreenshot, seriousAxeViolations } from '../helpers/browser.js';
import { CONSOLE_PASSWORD } from '../helpers/console-client.js';

const skip = chromiumSkip();

/** Every public page and every console view (issue 32: each must fit a 390 px phone). */
const PUBLIC_PAGES = ['/', '/map', '/agents-forum', '/docs', '/payments', '/console/login'];
const CONSOLE_VIEWS = [
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
const VIEWPORTS = [
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

test('every page and console view fits 390×844 and 1440×900: no horizontal scroll, axe-core clean', { skip }, async () => {
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
    const failures: string[] = [];
    for (const viewport of VIEWPORTS) {
      const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height }, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(base + '/console/login');
      await page.fill('#password', CONSOLE_PASSWORD);
      await Promise.all([page.waitForURL(base + '/console'), page.press('#password', 'Enter')]);
      for (const path of [...PUBLIC_PAGES, ...CONSOLE_VIEWS]) {
        const response = await page.goto(base + path);
        assert.equal(response?.status(), 200, `${path} answers 200`);
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
    }
    assert.deepEqual(failures, []);
  } finally {
    await browser.close();
    await app.close();
  }
});
