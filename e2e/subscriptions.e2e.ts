import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './harness/api.js';
import { chromiumAvailable, launchBrowser, type RunningBrowser, screenshot } from './harness/browser.js';
import { expectPath, expectText, expectTexts } from './harness/page.js';
import { type RunningServer, startServer } from './harness/server.js';
import { assertWebBuilt } from './harness/webBuild.js';

describe.skipIf(!chromiumAvailable())('subscriptions and invoices (free beta)', () => {
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  const at = (path: string) => `${server.url}${path}`;

  const call = (method: string, path: string, data?: unknown) =>
    apiCall(browser, server.url, method, path, data);

  beforeAll(async () => {
    assertWebBuilt();
    server = await startServer();
    browser = await launchBrowser();
    page = browser.page;
    await page.goto(at('/api/auth/github/install'));
    await expectPath(page, '/repository-picker');
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the empty states', async () => {
    await page.goto(at('/subscriptions'));
    await expectTexts(page, [
      'Subscription Management',
      'No subscriptions found. Create your first subscription to get started!',
    ]);
    await screenshot(page, 'subscriptions-01-empty');
    await page.getByRole('link', { name: 'Invoice History' }).click();
    await expectPath(page, '/invoices');
    await expectTexts(page, ['Invoice History', 'No invoices found.', 'Back to Subscriptions']);
    await screenshot(page, 'subscriptions-02-invoices-empty');
  });

  it('lists a free-beta subscription as trialing and shows the trial notice on its invoices', async () => {
    const created = await call('POST', '/api/subscriptions/demo-app', {
      plan_code: 'BASIC_1GB',
      idempotency_key: `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}`,
      metadata: {
        repo_owner: 'operator',
        repo_name: 'demo-app',
        branch: 'main',
        vm_size: 'Standard_B2ats_v2',
      },
    });
    expect(created.status(), await created.text()).toBeLessThan(300);
    const { id, hosted_checkout_url: checkout } = (await created.json()) as {
      id: string;
      hosted_checkout_url: null;
    };
    expect(checkout).toBeNull();

    await page.goto(at('/subscriptions'));
    const card = page.getByTestId('subscription');
    await card.first().waitFor();
    expect(await card.count()).toBe(1);
    await expectTexts(page, ['trialing', 'BASIC_1GB', 'Trial ends', 'Next renewal', 'View Invoices']);
    expect(await card.getByRole('button', { name: 'Cancel' }).count()).toBe(1);
    await screenshot(page, 'subscriptions-03-trialing');

    await card.getByRole('link', { name: 'View Invoices' }).click();
    await expectPath(page, `/invoices/${id}`);
    await expectTexts(page, [
      'Subscription Invoices',
      'Trial Period Active',
      /^Trial ends \S/,
      'Back to Subscriptions',
    ]);
    await expectText(page, 'trialing');
    await screenshot(page, 'subscriptions-04-trial-invoices');
  });

  it('cancels after confirmation and hides Cancel afterwards', async () => {
    await page.goto(at('/subscriptions'));
    const card = page.getByTestId('subscription').first();
    await card.getByRole('button', { name: 'Cancel' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await screenshot(page, 'subscriptions-05-cancel-confirm');
    await dialog.getByRole('button', { name: 'Cancel Subscription' }).click();
    await expectText(page, 'cancelled');
    await card.getByRole('button', { name: 'Cancel' }).waitFor({ state: 'detached' });
    await screenshot(page, 'subscriptions-06-cancelled');
  });
});
