import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium; the tests never download a browser of their own. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a root user on a machine without a GPU or outside network. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: FLAGS });
}

/** Screenshots the browser suites write, for a person to look at after the run. */
export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'screenshots');

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Serves the app on a loopback port (a browser needs a real socket) and returns its base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return address.replace('localhost', '127.0.0.1');
}

/**
 * Collects uncaught page errors and console errors, so a test can assert a page ran cleanly.
 * Chromium's own "Failed to load resource" line for every 4xx answer is not the page's doing:
 * tests assert those answers through behaviour instead.
 */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/** A console page signed in with `token` (the operator token or a shop's private key), and its page errors. */
export async function signInToConsole(
  browser: Browser,
  base: string,
  token: string,
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(20_000);
  const errors = watchErrors(page);
  await page.goto(`${base}/console/`);
  await page.getByLabel('Operator token or shop private key').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Rulesets', level: 1 }).waitFor();
  return { page, errors };
}
