import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = fileURLToPath(new URL('../screenshots', import.meta.url));

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Whether browser tests can run. Locally a missing Chromium skips them; under CI=true it is an
 * error, so a broken CI image cannot pass by skipping.
 */
export function chromiumAvailable(): boolean {
  const found = existsSync(CHROMIUM_PATH);
  if (!found && process.env.CI === 'true') {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH} (set CHROMIUM_PATH); browser tests cannot be skipped in CI`,
    );
  }
  return found;
}

export interface RunningBrowser {
  context: BrowserContext;
  page: Page;
  close: () => Promise<void>;
}

const EVENTS_KEPT = 20;
const browserEvents = new WeakMap<Page, string[]>();

/** The page's last console errors, page errors, failed requests and API error answers, oldest first. */
export function recentBrowserEvents(page: Page): string[] {
  return browserEvents.get(page) ?? [];
}

/** Keeps what a failure message needs to explain itself: what the browser saw go wrong, newest last. */
function recordEvents(page: Page) {
  const events: string[] = [];
  browserEvents.set(page, events);
  const note = (text: string) => {
    events.push(`${new Date().toISOString().slice(11, 23)} ${text.slice(0, 300)}`);
    if (events.length > EVENTS_KEPT) events.shift();
  };
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      note(`console.${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => note(`page error: ${error.message}`));
  page.on('requestfailed', (request) =>
    note(`request failed: ${request.url()} (${request.failure()?.errorText})`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400 && response.url().includes('/api/'))
      note(`${response.status()} ${response.url()}`);
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) note(`navigated to ${frame.url()}`);
  });
}

/** Launches Chromium with a fresh profile directory (no cookies or storage from earlier runs). */
export async function launchBrowser(
  options: { viewport?: { width: number; height: number } } = {},
): Promise<RunningBrowser> {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'slipway-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: options.viewport ?? { width: 1280, height: 860 },
  });
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  recordEvents(page);
  return {
    context,
    page,
    close: async () => {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page screenshot as e2e/screenshots/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
