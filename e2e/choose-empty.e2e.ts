import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { chromiumAvailable, launchBrowser, type RunningBrowser, screenshot } from './harness/browser.js';
import { expectPath, expectTexts } from './harness/page.js';
import { type RunningServer, startServer } from './harness/server.js';
import { assertWebBuilt } from './harness/webBuild.js';

describe.skipIf(!chromiumAvailable())('repository picker with no repositories', () => {
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  let reposDir: string;

  beforeAll(async () => {
    assertWebBuilt();
    reposDir = mkdtempSync(path.join(tmpdir(), 'slipway-e2e-empty-repos-'));
    server = await startServer({ LOCAL_REPOS_DIR: reposDir });
    browser = await launchBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (reposDir) rmSync(reposDir, { recursive: true, force: true });
  });

  it('shows the empty state and sends a deploy page without a selection back to the picker', async () => {
    await page.goto(`${server.url}/api/auth/github/install`);
    await expectPath(page, '/repository-picker');
    await expectTexts(page, [
      'Choose Repository to Deploy',
      'Showing 0 repositories',
      'No repositories available',
      'Connect your GitHub repositories to get started',
    ]);
    await screenshot(page, 'choose-empty-01-no-repositories');

    await page.goto(`${server.url}/billing/operator/nothing`);
    await expectPath(page, '/repository-picker');
    await page.goto(`${server.url}/deploy/operator/nothing`);
    await expectTexts(page, ['Nothing to deploy yet', 'Back to Repository Selection']);
    await screenshot(page, 'choose-empty-02-deploy-without-selection');
  });
});
