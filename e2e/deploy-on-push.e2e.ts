import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './harness/api.js';
import { chromiumAvailable, launchBrowser, type RunningBrowser, screenshot } from './harness/browser.js';
import { siteUrl, startDeploymentFromPicker } from './harness/deployJourney.js';
import { commitFiles, makeRepo } from './harness/gitRepos.js';
import { expectText } from './harness/page.js';
import { type RunningServer, startServer } from './harness/server.js';
import { assertWebBuilt } from './harness/webBuild.js';

/** A one-service site whose page says `text`. */
const site = (text: string) => ({
  Dockerfile: `FROM busybox:1.36\nRUN mkdir -p /www && echo '${text}' > /www/index.html\nEXPOSE 8000\nCMD ["httpd", "-f", "-p", "8000", "-h", "/www"]\n`,
});

/** What the live site answers, through its link on the success screen (bound to IPv4 loopback). */

/**
 * Issue 15, deploy on push in local mode, as a user meets it: the switch in Workspace Settings, a commit into the
 * local repository, and the dashboard naming the deployment that followed as a push. The real server process
 * runs its branch-head watcher (started by main.ts).
 */
describe.skipIf(!chromiumAvailable())('deploy on push', () => {
  let root: string;
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  let repoDir: string;
  const at = (p: string) => `${server.url}${p}`;

  beforeAll(async () => {
    assertWebBuilt();
    root = mkdtempSync(path.join(tmpdir(), 'slipway-push-'));
    repoDir = makeRepo(path.join(root, '.slipway', 'repos'), 'operator', 'pushy', site('before the push'));
    server = await startServer({ DATA_DIR: path.join(root, '.slipway') });
    browser = await launchBrowser();
    page = browser.page;
    await page.goto(at('/'));
    await page.getByRole('banner').getByRole('button', { name: 'Sign in with GitHub' }).click();
  });

  afterAll(async () => {
    if (browser && server) {
      await apiCall(browser, server.url, 'DELETE', '/api/workspace-delete/pushy').catch(() => undefined);
    }
    await browser?.close();
    await server?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('turns deploy on push on, and a new commit is deployed and shown as a push on the dashboard', async () => {
    await startDeploymentFromPicker(page, 'pushy');
    await expectText(page, 'Deployment Successful!', { timeout: 170_000 });
    const url = await siteUrl(page);
    expect(await (await fetch(url)).text()).toBe('before the push\n');

    await page.goto(at('/workspace-settings?workspace=pushy&tab=revisions'));
    const toggle = page.getByRole('checkbox', { name: 'Deploy on push' });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await screenshot(page, 'deploy-on-push-01-switch');
    // The switch is kept by the server, not only by the page.
    await page.reload();
    // The page renders the switch once its settings have loaded: under load that can take longer than one check.
    await toggle.waitFor();
    await expect.poll(() => toggle.isChecked()).toBe(true);

    commitFiles(repoDir, site('after the push'), 'after the push');
    await page.goto(at('/dashboard?workspace=pushy'));
    const latest = page.getByTestId('latest-deployment');
    await latest.filter({ hasText: 'Push' }).filter({ hasText: 'completed' }).waitFor({ timeout: 170_000 });
    expect(await (await fetch(url)).text()).toBe('after the push\n');
    await screenshot(page, 'deploy-on-push-02-dashboard');

    await page.goto(at('/workspace-settings?workspace=pushy&tab=revisions'));
    await page.getByTestId('revision').nth(1).waitFor();
    await expectText(page, 'Push');
  }, 420_000);
});
