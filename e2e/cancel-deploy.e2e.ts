import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { apiCall } from './harness/api.js';
import { chromiumAvailable, launchBrowser, type RunningBrowser, screenshot } from './harness/browser.js';
import { startDeploymentFromPicker } from './harness/deployJourney.js';
import { makeRepo } from './harness/gitRepos.js';
import { expectText } from './harness/page.js';
import { type RunningServer, startServer } from './harness/server.js';
import { assertWebBuilt } from './harness/webBuild.js';

/** Issue 15: a deployment can be cancelled from its screen, and it says so. */
describe.skipIf(!chromiumAvailable())('cancelling a deployment', () => {
  let root: string;
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;

  beforeAll(async () => {
    assertWebBuilt();
    root = mkdtempSync(path.join(tmpdir(), 'slipway-cancel-'));
    makeRepo(path.join(root, '.slipway', 'repos'), 'operator', 'slowpoke', {
      // A build that would take two minutes; the nonce keeps Docker's cache out of it.
      Dockerfile: `FROM busybox:1.36\nRUN echo ${Date.now()} && echo "slow build started" && sleep 120\nEXPOSE 8000\nCMD ["httpd", "-f", "-p", "8000"]\n`,
    });
    server = await startServer({ DATA_DIR: path.join(root, '.slipway') });
    browser = await launchBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    if (browser && server) {
      await apiCall(browser, server.url, 'DELETE', '/api/workspace-delete/slowpoke').catch(() => undefined);
    }
    await browser?.close();
    await server?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('stops a deployment from its progress screen and shows why it ended', async () => {
    await page.goto(`${server.url}/`);
    await page.getByRole('banner').getByRole('button', { name: 'Sign in with GitHub' }).click();
    await startDeploymentFromPicker(page, 'slowpoke');
    await expectText(page, 'Deploying slowpoke');
    // Cancel once the build is underway (its log line is on the screen).
    await page
      .getByText(/slow build started/)
      .first()
      .waitFor({ timeout: 120_000 });
    const cancel = page.getByRole('button', { name: 'Cancel Deployment' });
    await screenshot(page, 'cancel-01-building');
    await cancel.click();
    await expectText(page, 'Deployment cancelled', { timeout: 30_000 });
    await screenshot(page, 'cancel-02-cancelled');
  }, 200_000);
});
