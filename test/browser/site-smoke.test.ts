import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../helpers/app.js';
import { chromiumSkip, launchChromium } from '../helpers/browser.js';

const skip = chromiumSkip();

test('the home page renders in Chromium with the live count of implemented operations', { skip }, async () => {
  const app = await startTestApp({ env: { HOST: '127.0.0.1', PORT: '0' } });
  const browser = await launchChromium();
  try {
    const base = (await app.bosun.listen()).replace('0.0.0.0', '127.0.0.1');
    const page = await browser.newPage();
    const response = await page.goto(base + '/');
    assert.equal(response?.status(), 200);
    const shown = await page.locator('[data-figure="operations"]').textContent();
    assert.equal(Number(shown?.replace(/[^0-9]/g, '')), app.bosun.ctx.catalog.implemented.length);
  } finally {
    await browser.close();
    await app.close();
  }
});
