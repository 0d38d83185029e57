import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './harness/api.js';
import { chromiumAvailable, launchBrowser, type RunningBrowser, screenshot } from './harness/browser.js';
import { siteUrl, startDeploymentFromPicker } from './harness/deployJourney.js';
import { commitFiles, makeRepo } from './harness/gitRepos.js';
import { expectPath, expectText } from './harness/page.js';
import { type RunningServer, startServer } from './harness/server.js';
import { assertWebBuilt } from './harness/webBuild.js';

/** A one-service site whose page says `text`. */
const site = (text: string) => ({
  Dockerfile: `FROM busybox:1.36\nRUN mkdir -p /www && echo '${text}' > /www/index.html\nEXPOSE 8000\nCMD ["httpd", "-f", "-p", "8000", "-h", "/www"]\n`,
});

/** What the live site answers, through its link on the success screen (bound to IPv4 loopback). */
async function siteText(page: Page): Promise<string> {
  return (await fetch(await siteUrl(page))).text();
}

/** Issue 15 in the browser: redeploy, roll back from the revisions list, cancel a deployment. */
describe.skipIf(!chromiumAvailable())('revisions, rollback and cancel', () => {
  let root: string;
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  let shopDir: string;
  const at = (p: string) => `${server.url}${p}`;

  beforeAll(async () => {
    assertWebBuilt();
    root = mkdtempSync(path.join(tmpdir(), 'slipway-revisions-'));
    const repos = path.join(root, '.slipway', 'repos');
    shopDir = makeRepo(repos, 'operator', 'twotone', site('first version'));
    makeRepo(repos, 'operator', 'slowpoke', {
      // A build that would take two minutes; the nonce keeps Docker's cache out of it.
      Dockerfile: `FROM busybox:1.36\nRUN echo ${Date.now()} && echo "slow build started" && sleep 120\nEXPOSE 8000\nCMD ["httpd", "-f", "-p", "8000"]\n`,
    });
    server = await startServer({ DATA_DIR: path.join(root, '.slipway') });
    browser = await launchBrowser();
    page = browser.page;
    await page.goto(at('/'));
    await page.getByRole('banner').getByRole('button', { name: 'Sign in with GitHub' }).click();
  });

  afterAll(async () => {
    for (const name of ['twotone', 'slowpoke']) {
      if (browser && server) {
        await apiCall(browser, server.url, 'DELETE', `/api/workspace-delete/${name}`).catch(() => undefined);
      }
    }
    await browser?.close();
    await server?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('redeploys from the dashboard, then rolls back from the revisions list', async () => {
    await startDeploymentFromPicker(page, 'twotone');
    await expectText(page, 'Deployment Successful!', { timeout: 170_000 });
    expect(await siteText(page)).toBe('first version\n');

    commitFiles(shopDir, site('second version'), 'second version');
    await page.goto(at('/dashboard?workspace=twotone'));
    await page.getByRole('button', { name: 'Deploy Again' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Configure Redeploy').waitFor();
    await dialog.getByRole('button', { name: 'Deploy Again' }).click();
    await expectText(page, 'Deployment Successful!', { timeout: 170_000 });
    expect(await siteText(page)).toBe('second version\n');

    await page.goto(at('/workspace-settings?workspace=twotone&tab=revisions'));
    const revisions = page.getByTestId('revision');
    await revisions.nth(1).waitFor();
    expect(await revisions.count()).toBe(2);
    await expectText(page, 'Live');
    await screenshot(page, 'revisions-01-list');
    await revisions.nth(1).getByRole('button', { name: 'Roll Back' }).click();
    await expectPath(page, '/deploy/operator/twotone');
    await expectText(page, 'Deployment Successful!', { timeout: 120_000 });
    expect(await siteText(page)).toBe('first version\n');
    await screenshot(page, 'revisions-02-rolled-back');

    await page.goto(at('/workspace-settings?workspace=twotone&tab=revisions'));
    await revisions.nth(2).waitFor();
    await expectText(page, 'Rollback');
  }, 420_000);

  it('stops a deployment from its progress screen and shows why it ended', async () => {
    await page.goto(at('/repository-picker'));
    await startDeploymentFromPicker(page, 'slowpoke');
    await expectText(page, 'Deploying slowpoke');
    // Cancel once the build is underway (its log line is on the screen).
    await page
      .getByText(/slow build started/)
      .first()
      .waitFor({ timeout: 120_000 });
    await screenshot(page, 'cancel-01-building');
    await page.getByRole('button', { name: 'Cancel Deployment' }).click();
    await expectText(page, 'Deployment cancelled', { timeout: 30_000 });
    await screenshot(page, 'cancel-02-cancelled');
  }, 200_000);
});
