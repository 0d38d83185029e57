import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './harness/a11y.js';
import { apiCall } from './harness/api.js';
import { chromiumAvailable, launchBrowser, type RunningBrowser, screenshot } from './harness/browser.js';
import { siteUrl, startDeploymentFromPicker } from './harness/deployJourney.js';
import { commitOnBranch, deleteBranch } from './harness/gitBranches.js';
import { makeRepo } from './harness/gitRepos.js';
import { expectText, expectTexts } from './harness/page.js';
import { type RunningServer, startServer } from './harness/server.js';
import { screenshotBothSizes } from './harness/viewports.js';
import { assertWebBuilt } from './harness/webBuild.js';

const WORKSPACE = 'previewed';
const BRANCH = 'pr/5';

/** A one-service site whose page says `text`. */
const site = (text: string) => ({
  Dockerfile: `FROM busybox:1.36\nRUN mkdir -p /www && echo '${text}' > /www/index.html\nEXPOSE 8000\nCMD ["httpd", "-f", "-p", "8000", "-h", "/www"]\n`,
});

/** What a URL answers, on IPv4 loopback where ports are published (as siteUrl does for the success screen). */
async function textAt(href: string): Promise<string> {
  const url = new URL(href);
  if (url.hostname === 'localhost') url.hostname = '127.0.0.1';
  return (await fetch(url)).text();
}

/**
 * Issue 31 in the browser, local mode: previews turned on in Workspace Settings → Previews; a branch `pr/5`
 * opens pull request #5, whose preview goes Live in the list at a URL of its own serving the branch's page;
 * moving the branch serves its new commit; deleting it removes the preview from the list.
 */
describe.skipIf(!chromiumAvailable())('preview deployments', () => {
  let root: string;
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  let repoDir: string;
  let productionUrl: URL;
  const at = (p: string) => `${server.url}${p}`;
  const row = () => page.locator(`tr[data-testid="preview"][data-number="5"]`);
  // The state shows once per width (beside the pull request on a phone, in its column otherwise): the visible one.
  const rowState = (label: string) => row().getByText(label, { exact: true }).filter({ visible: true });
  const previewLink = () => row().getByRole('list', { name: 'URLs of #5' }).getByRole('link');

  beforeAll(async () => {
    assertWebBuilt();
    root = mkdtempSync(path.join(tmpdir(), 'slipway-previews-'));
    repoDir = makeRepo(path.join(root, '.slipway', 'repos'), 'operator', WORKSPACE, site('production page'));
    server = await startServer({ DATA_DIR: path.join(root, '.slipway') });
    browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
    page = browser.page;
    await page.goto(at('/'));
    await page.getByRole('banner').getByRole('button', { name: 'Sign in with GitHub' }).click();
  });

  afterAll(async () => {
    if (browser && server) {
      await apiCall(browser, server.url, 'DELETE', `/api/workspace-delete/${WORKSPACE}`).catch(
        () => undefined,
      );
    }
    await browser?.close();
    await server?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('deploys a small site', async () => {
    await startDeploymentFromPicker(page, WORKSPACE);
    await expectText(page, 'Deployment Successful!', { timeout: 170_000 });
    productionUrl = await siteUrl(page);
    expect(await (await fetch(productionUrl)).text()).toBe('production page\n');
  }, 200_000);

  it('shows previews off by default, with the defaults and what previews can see', async () => {
    const upload = await apiCall(browser, server.url, 'POST', `/api/env-variables/${WORKSPACE}/upload`, {
      variables: [{ key: 'DATABASE_URL', value: 'postgres://production' }],
    });
    expect(upload.ok()).toBe(true);
    await page.goto(at(`/workspace-settings?workspace=${WORKSPACE}`));
    await page.getByRole('tab', { name: 'Previews' }).click();
    await expectTexts(page, [
      'Preview deployments',
      'Deploy a preview of each pull request',
      'Pull request previews',
      'No previews',
      'Variables for previews',
      'What a preview can see',
      'With GitHub',
      'In local mode',
    ]);
    const toggle = page.getByRole('switch', { name: 'Deploy a preview of each pull request' });
    expect(await toggle.isChecked()).toBe(false);
    expect(await page.getByLabel('VM size for previews').inputValue()).toBe('Standard_B2ats_v2');
    expect(await page.getByLabel('Most previews running at once').inputValue()).toBe('3');
    expect(await page.getByLabel('Remove after days without activity').inputValue()).toBe('7');
    const variable = page.locator('tr[data-testid="preview-variable"][data-key="DATABASE_URL"]');
    await variable.getByText('Not given to previews', { exact: true }).waitFor();
    expect(await variable.getByRole('checkbox', { name: 'Give DATABASE_URL to previews' }).isChecked()).toBe(
      false,
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshotBothSizes(page, 'previews-01-off');
  });

  it('refuses a limit out of range in the contract’s words, then turns previews on', async () => {
    await page.getByLabel('Most previews running at once').fill('0');
    await page.getByRole('switch', { name: 'Deploy a preview of each pull request' }).check();
    await page.getByRole('button', { name: 'Save Preview Settings' }).click();
    await expectText(page, 'At least one preview must be able to run');
    await page.getByLabel('Most previews running at once').fill('2');
    await page.getByRole('button', { name: 'Save Preview Settings' }).click();
    await expectText(page, 'Preview settings saved.');

    // A value of its own for previews: the preview never sees production's.
    const variable = page.locator('tr[data-testid="preview-variable"][data-key="DATABASE_URL"]');
    await variable.getByRole('button', { name: 'Set the value of DATABASE_URL for previews' }).click();
    await variable.getByLabel('Value of DATABASE_URL for previews').fill('postgres://preview');
    await variable.getByRole('button', { name: 'Save' }).click();
    await variable.getByText('Own value for previews', { exact: true }).waitFor();
    await screenshot(page, 'previews-02-on');

    // Kept by the server, not only by the page.
    await page.goto(at(`/workspace-settings?workspace=${WORKSPACE}&tab=previews`));
    const toggle = page.getByRole('switch', { name: 'Deploy a preview of each pull request' });
    await expect.poll(() => toggle.isChecked()).toBe(true);
    expect(await page.getByLabel('Most previews running at once').inputValue()).toBe('2');
    await variable.getByText('Own value for previews', { exact: true }).waitFor();
  });

  it('deploys a branch pr/5 as the preview of #5, Live at a URL of its own serving the branch', async () => {
    const sha = commitOnBranch(repoDir, BRANCH, site('preview one'), 'change the page');
    await row().waitFor({ timeout: 30_000 });
    expect(await row().getByTestId('preview-branch').textContent()).toBe(BRANCH);
    await rowState('Live').waitFor({ timeout: 170_000 });
    expect(await row().getByTestId('preview-commit').textContent()).toBe(sha.slice(0, 7));
    expect(await row().getByText(`#5 ${BRANCH}`).count()).toBe(1);
    await row()
      .getByText('opened just now', { exact: true })
      .or(row().getByText(/^opened \d+ minutes? ago$/))
      .waitFor();
    const href = (await previewLink().first().getAttribute('href')) ?? '';
    expect(href).not.toBe(productionUrl.href);
    expect(await textAt(href)).toBe('preview one\n');
    expect(await (await fetch(productionUrl)).text()).toBe('production page\n');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshotBothSizes(page, 'previews-03-live');
  }, 200_000);

  it('asks before removing, naming the preview', async () => {
    await row()
      .getByRole('button', { name: `Remove #5 ${BRANCH}` })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByText(
        `Remove the preview of #5 ${BRANCH}? Its containers, volumes, images, route and logs go now; a new push to the pull request brings it back.`,
        { exact: true },
      )
      .waitFor();
    await screenshot(page, 'previews-04-remove-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await row().count()).toBe(1);
  });

  it('lists the preview on the dashboard', async () => {
    await page.goto(at(`/dashboard?workspace=${WORKSPACE}`));
    const card = page.getByTestId('dashboard-preview');
    await card.getByText(`#5 ${BRANCH}`, { exact: true }).waitFor();
    await card.getByText('Live', { exact: true }).waitFor();
    await screenshot(page, 'previews-05-dashboard');
  });

  it('serves the new commit once the branch moves', async () => {
    await page.goto(at(`/workspace-settings?workspace=${WORKSPACE}&tab=previews`));
    await row().waitFor();
    const sha = commitOnBranch(repoDir, BRANCH, site('preview two'), 'change the page again');
    await expect
      .poll(() => row().getByTestId('preview-commit').textContent(), { timeout: 30_000 })
      .toBe(sha.slice(0, 7));
    await rowState('Live').waitFor({ timeout: 170_000 });
    const href = (await previewLink().first().getAttribute('href')) ?? '';
    await expect.poll(() => textAt(href), { timeout: 30_000 }).toBe('preview two\n');
    await screenshot(page, 'previews-06-moved');
  }, 200_000);

  it('removes the preview when the branch is deleted', async () => {
    const href = (await previewLink().first().getAttribute('href')) ?? '';
    deleteBranch(repoDir, BRANCH);
    await row().waitFor({ state: 'detached', timeout: 120_000 });
    await expectText(page, 'No previews');
    const after = await textAt(href).catch((error: Error) => error.message);
    expect(after).not.toBe('preview two\n');
    expect(await (await fetch(productionUrl)).text()).toBe('production page\n');
    await screenshotBothSizes(page, 'previews-07-removed');
  }, 150_000);
});
