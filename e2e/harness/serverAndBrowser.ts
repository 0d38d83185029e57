import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, type RunningBrowser } from './browser.js';
import { type RunningServer, startServer } from './server.js';
import { assertWebBuilt } from './webBuild.js';

/**
 * For a browser test file: the built web app served by a real server of its own, and a browser page — both
 * started before the file's tests and stopped after them. Read the fields inside tests (set in `beforeAll`).
 */
export function useServerAndBrowser(options: { launch?: Parameters<typeof launchBrowser>[0] } = {}) {
  const world = {
    at: (path: string) => `${world.server.url}${path}`,
  } as { server: RunningServer; browser: RunningBrowser; page: Page; at: (path: string) => string };
  beforeAll(async () => {
    assertWebBuilt();
    world.server = await startServer();
    world.browser = await launchBrowser(options.launch);
    world.page = world.browser.page;
  });
  afterAll(async () => {
    await world.browser?.close();
    await world.server?.stop();
  });
  return world;
}
