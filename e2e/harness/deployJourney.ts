import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectPath } from './page.js';

/**
 * A signed-in user's way from the repository picker to a started deployment of `repo` (owner `operator`,
 * default branch and VM size, `nodes` nodes (one when not given), no variables, the free-beta billing step): ends
 * on /deploy/operator/{repo}.
 */
export async function startDeploymentFromPicker(page: Page, repo: string, options: { nodes?: number } = {}) {
  await expectPath(page, '/repository-picker');
  await page.getByTestId('repository-card').filter({ hasText: repo }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText('Configure Deployment', { exact: true }).waitFor();
  await expect.poll(() => dialog.getByRole('button', { name: 'Branch' }).textContent()).toContain('main');
  if (options.nodes !== undefined)
    await dialog.getByRole('spinbutton', { name: 'Nodes' }).fill(String(options.nodes));
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expectPath(page, `/env-variables/${repo}`);
  await page.getByRole('button', { name: 'Continue to Next Step' }).click();
  await expectPath(page, `/deploy/operator/${repo}`);
  await page.getByRole('button', { name: 'Start Deployment' }).click();
  await expectPath(page, `/billing/operator/${repo}`);
  await page.getByRole('button', { name: 'Start Subscription & Deploy' }).click();
  await expectPath(page, `/deploy/operator/${repo}`);
}

/** The deployed site's address from the page's site link, on IPv4 loopback where ports are published. */
export async function siteUrl(page: Page): Promise<URL> {
  const url = new URL((await page.getByTestId('site-url').getAttribute('href')) ?? '');
  if (url.hostname === 'localhost') url.hostname = '127.0.0.1';
  return url;
}
