import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './harness/a11y.js';
import { chromiumAvailable, screenshot } from './harness/browser.js';
import { expectPath, expectText, expectTexts } from './harness/page.js';
import { useServerAndBrowser } from './harness/serverAndBrowser.js';
import { screenshotBothSizes, VIEWPORTS } from './harness/viewports.js';

const COPY_NOW = "Copy this token now. You won't be able to see it again.";
const TOKEN_NAME = 'e2e-ci';

/**
 * Account Settings → API Tokens against the real server: a token made in the browser works from outside it
 * (Authorization: Bearer) until it is revoked in the browser, and the admin's Audit Log shows both steps.
 */
describe.skipIf(!chromiumAvailable())('API tokens', () => {
  const world = useServerAndBrowser({ launch: { viewport: { width: 1280, height: 900 } } });
  let page: Page;
  let token = '';
  const { at } = world;
  /** GET /api/user with the token, as a script or CI job would call it: no cookie, no anti-forgery token. */
  const userStatusWithToken = async () =>
    (await fetch(at('/api/user'), { headers: { authorization: `Bearer ${token}` } })).status;
  const tokenRow = () =>
    page.getByRole('table', { name: 'API tokens' }).getByRole('row', { name: TOKEN_NAME });

  beforeAll(async () => {
    await world.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: world.server.url,
    });
    page = world.page;
  });

  it('opens Account Settings from the user menu', async () => {
    await page.goto(at('/api/auth/github/install'));
    await expectPath(page, '/repository-picker');
    await page.getByRole('button', { name: /operator/ }).click();
    await page.getByRole('menuitem', { name: 'Account Settings' }).click();
    await expectPath(page, '/account-settings');
    await expectTexts(page, ['Account Settings', 'API Tokens', 'Create a token', 'No tokens yet']);
    for (const explanation of [
      'View workspaces, deployments and logs',
      'Start, cancel and roll back deployments',
      'Change settings and variables, delete workspaces',
      'Read environment variable values',
    ]) {
      await expectText(page, explanation);
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'api-tokens-01-empty');
  });

  it('says what is missing in words before creating anything', async () => {
    await page.getByRole('button', { name: 'Create Token' }).click();
    await expectText(page, 'Give the token a name');
  });

  it('creates a read+deploy token and shows it once, with Copy', async () => {
    await page.getByLabel('Name').fill(TOKEN_NAME);
    await page.getByLabel('Expiry').selectOption({ label: '90 days' });
    await page.getByRole('checkbox', { name: /^deploy/ }).check();
    expect(await page.getByRole('checkbox', { name: /^read/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Create Token' }).click();

    await expectText(page, COPY_NOW);
    token = (await page.getByTestId('new-api-token').textContent()) ?? '';
    expect(token).toMatch(/^slw_[A-Za-z0-9]{40}$/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expectText(page, 'Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    const row = tokenRow();
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells.slice(0, 4)).toEqual([TOKEN_NAME, `${token.slice(0, 8)}…`, 'readdeploy', 'All workspaces']);
    expect(cells[6]).toBe('Never');
    await screenshotBothSizes(page, 'api-tokens-02-created');
  });

  it('lets a script in with the token, and never shows the token again', async () => {
    expect(await userStatusWithToken()).toBe(200);
    await page.reload();
    await tokenRow().waitFor();
    await expectText(page, 'Create a token');
    expect(await page.getByText(COPY_NOW).count()).toBe(0);
    expect(await page.locator('body').textContent()).not.toContain(token);
    // Used once: the list says when.
    expect(await tokenRow().getByRole('cell').nth(6).textContent()).not.toBe('Never');
  });

  it('revokes the token after a confirmation: the script is refused', async () => {
    await tokenRow()
      .getByRole('button', { name: `Revoke ${TOKEN_NAME}` })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`Revoke ${TOKEN_NAME} (${token.slice(0, 8)}…)?`, { exact: false }).waitFor();
    await screenshot(page, 'api-tokens-03-revoke-confirm');
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await expectText(page, 'No tokens yet');
    expect(await userStatusWithToken()).toBe(401);
  });

  it('is in the phone menu too', async () => {
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto(at('/dashboard'));
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.locator('#mobile-menu').getByText('Account Settings', { exact: true }).click();
    await expectPath(page, '/account-settings');
    await expectText(page, 'No tokens yet');
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  it('shows the creation and the revocation in the admin panel’s Audit Log, newest first', async () => {
    const { adminPassword } = JSON.parse(
      await readFile(path.join(world.server.dataDir, 'secrets.json'), 'utf8'),
    ) as { adminPassword: string };
    await page.goto(at('/admin'));
    await page.getByLabel('Admin Password').fill(adminPassword);
    await page.getByLabel('Admin Password').press('Enter');
    await page.getByRole('tab', { name: 'Audit Log', exact: true }).click();
    const table = page.getByRole('table', { name: 'Audit log' });
    await table.locator('tr[data-action="api_token.revoked"]').waitFor();
    const actions = await table
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => row.dataset.action));
    expect(actions.slice(0, 2)).toEqual(['api_token.revoked', 'api_token.created']);
    const created = await table
      .locator('tr[data-action="api_token.created"]')
      .getByRole('cell')
      .allTextContents();
    expect(created[1]).toBe('operator');
    expect(created[4]).toContain(`name: ${TOKEN_NAME}`);
    expect(created[4]).toContain('scopes: read, deploy');
    expect(await page.locator('body').textContent()).not.toContain(token);
    await screenshot(page, 'api-tokens-04-audit-log');
  });
});
