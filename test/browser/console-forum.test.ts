import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { chromiumSkip, launchChromium, saveScreenshot, seriousAxeViolations } from '../helpers/browser.js';
import { CONSOLE_PASSWORD } from '../helpers/console-client.js';

const skip = chromiumSkip();

/** Pages whose screenshot is their first screen only (the full page runs to megabytes). */
const LONG_PAGES = new Set(['docs', 'console-status']);

const CONSOLE_VIEWS: ReadonlyArray<[string, string]> = [
  ['/console', 'console-status'],
  ['/console/telemetry', 'console-telemetry'],
  ['/console/agents', 'console-agents'],
  ['/console/operator-requests', 'console-operator-requests'],
  ['/console/moderation', 'console-moderation'],
  ['/console/feeds', 'console-feeds'],
  ['/console/trials', 'console-trials'],
  ['/console/payments', 'console-payments'],
  ['/console/feedback', 'console-feedback'],
  ['/console/exchange', 'console-exchange'],
  ['/console/routes', 'console-routes'],
];

async function started(): Promise<{ app: TestApp; browser: Browser; base: string }> {
  const app = await startTestApp({ env: { HOST: '127.0.0.1', PORT: '0' } });
  const browser = await launchChromium();
  const base = (await app.bosun.listen()).replace('0.0.0.0', '127.0.0.1');
  await app.bosun.ctx.services.operator.setPassword(CONSOLE_PASSWORD);
  return { app, browser, base };
}

/** Opens a page, saves its screenshot and checks it with axe-core: no serious or critical violation. */
async function visit(page: Page, url: string, name: string): Promise<void> {
  const response = await page.goto(url);
  assert.equal(response?.status(), 200, `${url} answers 200`);
  await saveScreenshot(page, name, { fullPage: !LONG_PAGES.has(name) });
  const violations = await seriousAxeViolations(page);
  assert.deepEqual(
    violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    [],
    `${url}: no serious or critical accessibility violation`,
  );
}

/** Signs in with the keyboard only: Tab to the password field, type, Enter submits. */
async function signInByKeyboard(page: Page, base: string): Promise<void> {
  await page.goto(base + '/console/login');
  for (let i = 0; i < 30 && (await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id?: string } | null } }).document.activeElement?.id)) !== 'password'; i++) {
    await page.keyboard.press('Tab');
  }
  assert.equal(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id?: string } | null } }).document.activeElement?.id), 'password', 'Tab reaches the password field');
  await page.keyboard.type(CONSOLE_PASSWORD);
  await Promise.all([page.waitForURL(base + '/console'), page.keyboard.press('Enter')]);
  assert.match((await page.locator('h1').textContent()) ?? '', /Service status/);
}

test('public pages and every console view in Chromium: forum lists an API post, keyboard sign-in, approve a request, axe-core clean, screenshots', { skip }, async () => {
  const { app, browser, base } = await started();
  try {
    const agent = await app.registerAgent('browser-agent');
    const posted = await app.api('POST', '/v1/exchange/messages', { token: agent.apiKey, body: { channel: 'ports', body: 'Anchorage at Rotterdam is full tonight (browser test).' } });
    assert.equal(posted.status, 201, posted.text);
    const request = await app.api('POST', '/v1/harbor/operator-requests', {
      token: agent.apiKey,
      body: { category: 'access_request', subject: 'Live positions please', body: 'For a berth planner.', requested_scopes: ['vessels:live'] },
    });
    assert.equal(request.status, 201, request.text);
    const requestId = request.body.data.request_id as string;

    // axe-core is injected as a script: this page bypasses the pages' CSP (script-src 'self'); the other tests keep it
    const page = await browser.newPage({ bypassCSP: true });
    await visit(page, base + '/', 'home');
    await visit(page, base + '/docs', 'docs');
    await visit(page, base + '/agents-forum', 'agents-forum');
    assert.equal(await page.locator(`[data-message="${posted.body.data.message_id}"]`).count(), 1, 'the forum lists the post made through the API');
    assert.match((await page.locator(`[data-message="${posted.body.data.message_id}"]`).textContent()) ?? '', /Anchorage at Rotterdam is full tonight/);
    await visit(page, base + '/payments', 'payments');
    await visit(page, base + '/console/login', 'console-login');

    await signInByKeyboard(page, base);
    await page.goto(base + '/console/operator-requests');
    await page.fill(`#answer-${requestId}`, 'Granted for the berth planner.');
    await Promise.all([page.waitForURL(base + '/console/operator-requests'), page.click(`section[aria-labelledby="req-${requestId}"] button[value="approve"]`)]);
    const me = await app.api('GET', '/v1/agents/me', { token: agent.apiKey });
    assert.ok(me.body.data.scopes.includes('vessels:live'), 'the agent sees the granted scope through the API');

    for (const [path, name] of CONSOLE_VIEWS) await visit(page, base + path, name);
  } finally {
    await browser.close();
    await app.close();
  }
});

test('console in Chromium refuses a form with a wrong CSRF token or a foreign Origin', { skip }, async () => {
  const { app, browser, base } = await started();
  try {
    const agent = await app.registerAgent('csrf-target');
    const page = await browser.newPage();
    await signInByKeyboard(page, base);
    // under the pages' CSP, uPlot (served from its npm package) draws the telemetry charts over the SVG fallback
    await app.api('GET', '/v1/ping');
    await page.goto(base + '/console/telemetry');
    await page.waitForSelector('figure[data-enhanced="uplot"] .uplot');
    assert.equal(await page.locator('figure[data-enhanced="uplot"]').count(), 4, 'uPlot draws the four charts');
    assert.equal(await page.locator('svg[data-chart][role="img"]').count(), 4, 'the SVG charts stay as the text alternative');
    await page.goto(base + '/console/agents');
    await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: any }).document;
      const token = doc.querySelector('form[action="/console/agents/grant"] input[name="csrf"]');
      token.value = 'wrong-token';
    });
    // the scope picker starts on a placeholder the browser will not submit: choose one
    await page.locator('form[action="/console/agents/grant"] select[name="scope"]').first().selectOption('vessels:live');
    const [wrong] = await Promise.all([
      page.waitForResponse((r) => r.url() === base + '/console/agents/grant' && r.request().method() === 'POST'),
      page.locator('form[action="/console/agents/grant"] button[type="submit"]').first().click(),
    ]);
    assert.equal(wrong.status(), 403);
    assert.match((await page.locator('main').textContent()) ?? '', /CSRF check failed/);

    await page.goto(base + '/console/agents');
    const csrf = await page.locator('form[action="/console/agents/grant"] input[name="csrf"]').first().inputValue();
    const foreign = await page.request.post(base + '/console/agents/grant', { form: { csrf, agent_id: agent.agentId, scope: 'vessels:live' }, headers: { origin: 'https://evil.example' } });
    assert.equal(foreign.status(), 403, 'the right token from another origin is refused');
    const me = await app.api('GET', '/v1/agents/me', { token: agent.apiKey });
    assert.ok(!me.body.data.scopes.includes('vessels:live'), 'nothing was granted');
  } finally {
    await browser.close();
    await app.close();
  }
});

test('console in Chromium locks sign-in after 5 failures from one address', { skip }, async () => {
  const { app, browser, base } = await started();
  try {
    const page = await browser.newPage();
    const attempt = async (password: string) => {
      await page.goto(base + '/console/login');
      await page.fill('#password', password);
      const [response] = await Promise.all([page.waitForResponse((r) => r.url() === base + '/console/login' && r.request().method() === 'POST'), page.press('#password', 'Enter')]);
      return response.status();
    };
    for (let i = 0; i < 5; i++) assert.equal(await attempt(`wrong password ${i}`), 401);
    assert.equal(await attempt(CONSOLE_PASSWORD), 429, 'the right password is refused while locked');
    assert.match((await page.locator('[role="alert"]').textContent()) ?? '', /Too many failed sign-ins/);
  } finally {
    await browser.close();
    await app.close();
  }
});
