import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PROJECT_ROOT } from './shared-data.js';

/** Debian's Chromium, installed by `.ci/run` (never a browser downloaded by Playwright). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The flags this machine kind needs: without the background-networking ones Chromium's own connections are refused, many at a time. */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Where the browser tests save their screenshots: test-output/screenshots (ignored by git), or the
 * documents' copies in docs/screenshots (linked from docs/web.md) when BOSUN_UPDATE_SCREENSHOTS=1, so a
 * test run leaves the working tree as it found it.
 */
export const SCREENSHOT_DIR = process.env.BOSUN_UPDATE_SCREENSHOTS === '1' ? join(PROJECT_ROOT, 'docs', 'screenshots') : join(PROJECT_ROOT, 'test-output', 'screenshots');

/**
 * A skip reason when Chromium is absent: a visible notice on a user's machine, a failure under CI=true
 * (CI installs it, so a missing browser there is a broken install, not a reason to skip).
 */
export function chromiumSkip(): false | string {
  if (existsSync(CHROMIUM_PATH)) return false;
  if (process.env.CI === 'true') throw new Error(`CI=true and ${CHROMIUM_PATH} is absent: .ci/run installs Debian's chromium; browser tests must not be skipped in CI`);
  const reason = `SKIPPED: browser test needs Debian's Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`;
  console.warn(reason);
  return reason;
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** Saves a screenshot as <SCREENSHOT_DIR>/<name>.png: the full page, or the first screen of a very long one (fullPage false). */
export async function saveScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  const shoot = () => page.screenshot({ path, fullPage: options.fullPage ?? true });
  try {
    await shoot();
  } catch (error) {
    // headless Chromium now and then has no frame to give on a loaded machine ("Unable to capture screenshot", seen in
    // CI on /map): the screenshot is a record, not an assertion, so it is taken once more after the next frame
    if (!String(error).includes('Unable to capture screenshot')) throw error;
    await page.evaluate(() => new Promise((frame) => requestAnimationFrame(() => frame(null))));
    await shoot();
  }
  return path;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** Runs axe-core in the page and returns the serious and critical violations. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: join(PROJECT_ROOT, 'node_modules', 'axe-core', 'axe.min.js') });
  const violations = (await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  })) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
