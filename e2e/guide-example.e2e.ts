import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './harness/api.js';
import { chromiumAvailable, launchBrowser, type RunningBrowser, screenshot } from './harness/browser.js';
import { startDeploymentFromPicker } from './harness/deployJourney.js';
import { expectText } from './harness/page.js';
import { REPO_ROOT, type RunningServer, startServer } from './harness/server.js';
import { assertWebBuilt } from './harness/webBuild.js';

/**
 * The deploying guide's (docs/guide/deploying.md, the README's first link) "Deploying something on this
 * machine", followed literally: its own shell block lays out the
 * `hello` repository under `.slipway/repos`, then a user signs in, picks it and deploys it to Live.
 * The block runs in a scratch directory standing in for the repository root, whose `.slipway` is the
 * server's data directory (the default DATA_DIR resolves `.slipway` against the repository root).
 */
function readmeRepoBlock(): string {
  const readme = readFileSync(path.join(REPO_ROOT, 'docs/guide/deploying.md'), 'utf8');
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  const block = blocks.find((text) => text.includes('.slipway/repos/operator/hello'));
  if (!block)
    throw new Error(
      'docs/guide/deploying.md no longer has the shell block that creates the hello repository',
    );
  return block;
}

describe.skipIf(!chromiumAvailable())("the deploying guide's example", () => {
  let root: string;
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  const at = (p: string) => `${server.url}${p}`;

  beforeAll(async () => {
    assertWebBuilt();
    root = mkdtempSync(path.join(tmpdir(), 'slipway-readme-'));
    // Our own guide's text, run as a reader would paste it into a shell at the repository root.
    execFileSync('bash', ['-euo', 'pipefail', '-c', readmeRepoBlock()], { cwd: root, stdio: 'pipe' });
    expect(existsSync(path.join(root, '.slipway/repos/operator/hello/Dockerfile'))).toBe(true);
    server = await startServer({ DATA_DIR: path.join(root, '.slipway') });
    browser = await launchBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    if (browser && server) {
      await apiCall(browser, server.url, 'DELETE', '/api/workspace-delete/hello').catch(() => undefined);
    }
    await browser?.close();
    await server?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('signs in, picks hello and reaches Deployment Successful!', async () => {
    await page.goto(at('/'));
    await page.getByRole('banner').getByRole('button', { name: 'Sign in with GitHub' }).click();
    await startDeploymentFromPicker(page, 'hello');
    await expectText(page, 'Deployment Successful!', { timeout: 170_000 });
    await screenshot(page, 'readme-example-live');
    // Without Caddy the link is http://localhost:{port}, bound to 127.0.0.1 (Node may try ::1 for localhost).
    const site = new URL((await page.getByTestId('site-url').getAttribute('href')) ?? '');
    expect(site.hostname).toBe('localhost');
    site.hostname = '127.0.0.1';
    expect(await (await fetch(site)).text()).toBe('hello\n');
  }, 240_000);
});
