import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './harness/api.js';
import { chromiumAvailable, launchBrowser, type RunningBrowser, screenshot } from './harness/browser.js';
import { startDeploymentFromPicker } from './harness/deployJourney.js';
import { makeRepo } from './harness/gitRepos.js';
import { expectPath, expectText } from './harness/page.js';
import { type RunningServer, startServer } from './harness/server.js';
import { assertWebBuilt } from './harness/webBuild.js';

/** A compose app whose web service answers with its container's hostname. */
const app = {
  'compose.yaml': `services:
  web:
    image: busybox:1.36
    command: ["sh", "-c", "mkdir -p /www && hostname > /www/index.html && exec httpd -f -p 8000 -h /www"]
    ports: ["8000"]
`,
};

/** Issue 32 in the browser: the dashboard's Replicas card scales a service up and down. */
describe.skipIf(!chromiumAvailable())('the Replicas control', () => {
  let root: string;
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  const at = (p: string) => `${server.url}${p}`;

  beforeAll(async () => {
    assertWebBuilt();
    root = mkdtempSync(path.join(tmpdir(), 'slipway-replicas-'));
    makeRepo(path.join(root, '.slipway', 'repos'), 'operator', 'scaled', app);
    server = await startServer({ DATA_DIR: path.join(root, '.slipway') });
    browser = await launchBrowser();
    page = browser.page;
    await page.goto(at('/'));
    await page.getByRole('banner').getByRole('button', { name: 'Sign in with GitHub' }).click();
  });

  afterAll(async () => {
    if (browser && server) {
      await apiCall(browser, server.url, 'DELETE', '/api/workspace-delete/scaled').catch(() => undefined);
    }
    await browser?.close();
    await server?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** Sets the web service's replicas in the card and follows the redeploy to its end. */
  async function scaleTo(count: number) {
    await page.goto(at('/dashboard?workspace=scaled'));
    const card = page.getByRole('list', { name: 'Replicas' });
    await card.getByLabel('web').fill(String(count));
    await card.getByRole('button', { name: 'Apply' }).click();
    await expectPath(page, '/deploy/operator/scaled');
    await expectText(page, 'Deployment Successful!', { timeout: 170_000 });
    await page.goto(at('/dashboard?workspace=scaled'));
    await expect
      .poll(() => page.getByRole('list', { name: 'Replicas' }).getByLabel('web').inputValue())
      .toBe(String(count));
  }

  it('scales a service to three replicas and back to one from the dashboard', async () => {
    await startDeploymentFromPicker(page, 'scaled');
    await expectText(page, 'Deployment Successful!', { timeout: 170_000 });

    await scaleTo(3);
    // The service states name each replica.
    for (const replica of ['web.1', 'web.2', 'web.3']) await expectText(page, replica);
    await screenshot(page, 'replicas-01-three');

    await scaleTo(1);
    await expectText(page, 'web');
    expect(await page.getByText('web.2', { exact: true }).count()).toBe(0);
  }, 600_000);
});
