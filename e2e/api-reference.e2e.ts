import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './harness/a11y.js';
import { chromiumAvailable, SCREENSHOT_DIR, screenshot } from './harness/browser.js';
import { expectPath, expectText } from './harness/page.js';
import { useServerAndBrowser } from './harness/serverAndBrowser.js';

describe.skipIf(!chromiumAvailable())('the API reference page', () => {
  const world = useServerAndBrowser();
  let page: Page;
  const { at } = world;

  beforeAll(async () => {
    page = world.page;
  });

  it('is linked from the documentation and lists the operations by area, signed out', async () => {
    const documents: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/openapi.json')) documents.push(response.status());
    });
    await page.goto(at('/documentation'));
    await page.getByRole('link', { name: 'API reference' }).click();
    await expectPath(page, '/api-reference');
    await expectText(page, 'API reference');
    await expectText(page, 'Authentication');

    // A known operation: its method and path on one line, with its name and who may call.
    const listWorkspaces = page.locator('details#listWorkspaces > summary');
    await listWorkspaces.waitFor();
    expect(await listWorkspaces.getByText('GET', { exact: true }).isVisible()).toBe(true);
    expect(await listWorkspaces.getByText('/api/user-workspaces', { exact: true }).isVisible()).toBe(true);
    expect(await listWorkspaces.getByText('Whitelisted user', { exact: true }).isVisible()).toBe(true);
    for (const area of ['account', 'deployments', 'workspaces', 'billing', 'admin', 'reference']) {
      expect(await page.locator(`section h2#area-${area}`).isVisible(), area).toBe(true);
    }
    expect(await page.locator('details').count()).toBeGreaterThan(80);
    expect(documents).toEqual([200]);
  });

  it('opens an operation on its parameters, body and answers', async () => {
    const logs = page.locator('details#workspaceLogs');
    await logs.locator('summary').click();
    const parameters = logs.getByRole('table', { name: 'workspaceLogs parameters' });
    await parameters.waitFor();
    const lines = parameters.getByRole('row').filter({ hasText: 'lines' });
    expect(await lines.textContent()).toMatch(/lines\s*query\s*integer 1–5000\s*no/);
    expect(await logs.getByRole('table', { name: 'workspaceLogs 200 answer' }).isVisible()).toBe(true);

    const start = page.locator('details#startDeployment');
    await start.locator('summary').click();
    await start.getByRole('table', { name: 'startDeployment request body' }).waitFor();
    expect(await start.textContent()).toContain(
      'Auth: cookie slipway_session + header X-XSRF-TOKEN, or Authorization: Bearer slw_…',
    );
    await start.screenshot({ path: path.join(SCREENSHOT_DIR, 'api-reference-operation.png') });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'api-reference-top.png') });
    await screenshot(page, 'api-reference');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
