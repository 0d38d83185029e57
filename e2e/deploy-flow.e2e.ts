import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCaddy } from '../apps/server/src/test/fixtures/caddyProcess.js';
import { apiCall } from './harness/api.js';
import { chromiumAvailable, launchBrowser, type RunningBrowser, screenshot } from './harness/browser.js';
import { dockerReady } from './harness/dockerReady.js';
import { makeRepo } from './harness/gitRepos.js';
import { httpsGet } from './harness/https.js';
import { expectPath, expectText, expectTexts } from './harness/page.js';
import { type ProductionBackends, productionBackends } from './harness/postgres.js';
import { type RunningServer, startServer } from './harness/server.js';
import { assertWebBuilt } from './harness/webBuild.js';

const OWNER = 'operator';
const dockerIsReady = dockerReady();

if (!dockerIsReady && process.env.CI === 'true') {
  throw new Error('CI=true but Docker (with the busybox:1.36 image and docker-compose) is not ready');
}

const WEB_SHOP = {
  'README.md': 'A tiny busybox web shop\n',
  Dockerfile: [
    'FROM busybox:1.36',
    'RUN mkdir -p /www && echo "web shop is up" > /www/index.html',
    'RUN echo "<script>window.__xss=1</script>"',
    'EXPOSE 8080',
    'CMD ["httpd", "-f", "-p", "8080", "-h", "/www"]',
    '',
  ].join('\n'),
  'docker-compose.yml': 'services:\n  web:\n    build: .\n    ports:\n      - "8080"\n',
};

// The full journey runs on production's backends (PostgreSQL, Redis with BullMQ); the other browser tests
// run on the embedded defaults.
describe.skipIf(!chromiumAvailable())('choosing a repository and deploying it (PostgreSQL and Redis)', () => {
  let server: RunningServer;
  let backends: ProductionBackends | undefined;
  let browser: RunningBrowser;
  let page: Page;
  let reposDir: string;
  let caddy: Awaited<ReturnType<typeof startCaddy>> | undefined;
  const at = (p: string) => `${server.url}${p}`;

  beforeAll(async () => {
    assertWebBuilt();
    reposDir = mkdtempSync(path.join(tmpdir(), 'slipway-e2e-repos-'));
    const repo = (name: string, files: Record<string, string>, ageDays = 0, branches: string[] = []) =>
      makeRepo(reposDir, OWNER, name, files, { ageDays, branches });
    const featureBranches = Array.from({ length: 12 }, (_, i) => `feature-${i + 1}`);
    repo('web-shop', WEB_SHOP, 0, featureBranches);
    repo('no-ports-app', { Dockerfile: 'FROM busybox:1.36\nCMD ["sleep", "3600"]\n' }, 200);
    repo('yesterday-app', { 'README.md': 'Changed yesterday\n', 'main.go': 'package main\n' }, 1);
    repo('three-days-app', { 'README.md': 'Three days old\n', 'app.py': 'print(1)\n' }, 3);
    repo('fortnight-app', { 'README.md': 'Two weeks old\n', 'index.ts': 'export {};\n' }, 15);
    repo('a-repository-with-a-very-long-name', { 'README.md': 'Long name\n' }, 45);
    for (let i = 1; i <= 9; i += 1) {
      repo(`filler-${String(i).padStart(2, '0')}`, { 'README.md': `Filler number ${i}\n` }, 100 + i);
    }
    // Real Caddy in front of the deployed services: the site link is HTTPS from Caddy's internal CA.
    caddy = dockerIsReady ? await startCaddy() : undefined;
    backends = await productionBackends();
    server = await startServer({
      ...backends?.env,
      LOCAL_REPOS_DIR: reposDir,
      ...(caddy ? { CADDY_ADMIN_URL: caddy.adminUrl, INGRESS_HTTPS_PORT: String(caddy.httpsPort) } : {}),
    });
    browser = await launchBrowser();
    page = browser.page;
    if (process.env.E2E_DEBUG) {
      page.on('console', (m) => console.log('console', m.type(), m.text()));
      page.on('response', (r) => r.url().includes('/api/') && console.log('resp', r.status(), r.url()));
    }
    await page.goto(at('/api/auth/github/install'));
    await expectPath(page, '/repository-picker');
  });

  afterAll(async () => {
    // Removes the deployed containers, network and volumes of the workspace, if it got that far.
    if (browser && server) {
      await apiCall(browser, server.url, 'DELETE', '/api/workspace-delete/web-shop').catch(() => undefined);
    }
    await browser?.close();
    await server?.stop();
    await caddy?.stop();
    await backends?.drop();
    if (reposDir) rmSync(reposDir, { recursive: true, force: true });
  });

  it('lists, searches and pages the repositories', async () => {
    await expectTexts(page, ['Choose Repository to Deploy', 'Showing 15 repositories']);
    const cards = page.getByTestId('repository-card');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(12);
    expect(await cards.first().textContent()).toContain('web-shop');
    await expectTexts(page, [
      'Updated yesterday',
      '3 days ago',
      '2 weeks ago',
      '2 months ago',
      'A tiny busybox web shop',
    ]);
    await expectText(page, 'a-repository-with-a-very-...');
    await screenshot(page, 'deploy-flow-01-picker');

    await page.getByRole('button', { name: 'Page 2' }).click();
    expect(await cards.count()).toBe(3);
    await screenshot(page, 'deploy-flow-02-picker-page-2');

    const search = page.getByRole('searchbox', { name: 'Search repositories' });
    await search.fill('SHOP');
    await expectText(page, 'Showing 1 repository matching "SHOP"');
    expect(await cards.count()).toBe(1);
    await search.fill('no-such-thing');
    await expectTexts(page, ['No repositories found', 'Try adjusting your search terms']);
    await screenshot(page, 'deploy-flow-03-picker-no-match');
    await search.fill('');
    await expectText(page, 'Showing 15 repositories');
  });

  it('configures branch and VM size in the dialog', async () => {
    await page.getByTestId('repository-card').filter({ hasText: 'web-shop' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Configure Deployment').waitFor();
    const branchButton = dialog.getByRole('button', { name: 'Branch' });
    await expect.poll(() => branchButton.textContent()).toContain('main');

    await branchButton.click();
    await expectText(page, 'Showing 10 of 13 branches. Type to search more.');
    await screenshot(page, 'deploy-flow-04-dialog-branches');
    const branchSearch = dialog.getByPlaceholder('Search branches...');
    await branchSearch.fill('FEATURE-1');
    await expect.poll(() => dialog.getByRole('button', { name: /^feature-1/ }).count()).toBe(4);
    await branchSearch.fill('nothing-like-this');
    await expectText(page, 'No branches found matching your search.');

    // Escape closes the open dropdown first, then the dialog (which clears the selection).
    await page.keyboard.press('Escape');
    await branchSearch.waitFor({ state: 'detached' });
    expect(await dialog.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.getByTestId('repository-card').filter({ hasText: 'web-shop' }).click();
    await dialog.getByRole('button', { name: 'VM Size' }).click();
    await dialog.getByPlaceholder('Search VM sizes...').fill('production');
    expect(await dialog.getByRole('button', { name: /4 GB RAM/ }).count()).toBe(1);
    await dialog.getByPlaceholder('Search VM sizes...').fill('gpu');
    await expectText(page, 'No VM sizes found matching your search.');
    await dialog.getByPlaceholder('Search VM sizes...').fill('1 GB');
    await dialog.getByRole('button', { name: /1 GB RAM/ }).click();
    await screenshot(page, 'deploy-flow-05-dialog-ready');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expectPath(page, '/env-variables/web-shop');
  });

  it('collects environment variables by typing, pasting and uploading', async () => {
    // Back from the variables screen reopens the dialog once with the stored repository and branch.
    await page.getByRole('link', { name: 'Back to Repository' }).click();
    await expectPath(page, '/repository-picker');
    await page.getByRole('dialog').getByText('Configure Deployment').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();
    await expectPath(page, '/env-variables/web-shop');

    await expectTexts(page, [
      'Environment Variables',
      /optional/,
      'operator/web-shop',
      'Drop a .env or .txt file',
    ]);
    await page.getByLabel('Variable 1 key').fill('API_KEY');
    await page.getByLabel('Variable 1 value').fill('secret-1');
    await page.getByLabel('Variable 1 value').press('Tab');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Variable 2 key');
    expect(await page.getByTestId('env-row').first().getAttribute('data-locked')).toBe('true');
    await expectText(page, '1 variable added');

    // A multi-line paste fills rows, replacing the empty one.
    await page.getByLabel('Variable 2 key').evaluate((input) => {
      const data = new DataTransfer();
      data.setData('text/plain', 'DATABASE_URL=postgres://db/app\n# comment\nGREETING="hello world"');
      input.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    });
    await expectText(page, '3 variables added');
    expect(await page.getByLabel('Variable 3 key').inputValue()).toBe('GREETING');

    const fileInput = page.getByTestId('env-file-input');
    await fileInput.setInputFiles({
      name: 'settings.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{}'),
    });
    await expectText(page, 'Please upload a .env or .txt file');
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();

    const envFile = "# from a file\nAPI_KEY='overridden'\nPORT=8080\n\nNOT A VARIABLE\n";
    await fileInput.setInputFiles({ name: '.env', mimeType: 'text/plain', buffer: Buffer.from(envFile) });
    await expectText(page, 'Successfully loaded 2 environment variables from the file');
    await screenshot(page, 'deploy-flow-06-env-uploaded');
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    await expectText(page, '4 variables added');
    expect(await page.getByLabel('Variable 1 value').inputValue()).toBe('overridden');
    await screenshot(page, 'deploy-flow-07-env-variables');

    await page.getByRole('button', { name: 'Continue to Next Step' }).click();
    await expectPath(page, '/deploy/operator/web-shop');
    await expect
      .poll(() => new URL(page.url()).searchParams.get('sessionId') ?? '')
      .toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reviews the deployment and subscribes', async () => {
    await expectTexts(page, [
      'Review Your Deployment',
      'operator/web-shop',
      '1 GB RAM',
      '2 vCPUs, 1 GB RAM',
      '$12/month',
    ]);
    await page.getByRole('button', { name: 'Show details' }).click();
    await expectTexts(page, ['99.9% uptime guarantee', 'Automatic SSL certificate', 'Custom domain support']);
    await page.getByTestId('workflow-steps').waitFor();
    await expectText(page, 'Deploy application');
    await screenshot(page, 'deploy-flow-08-review');

    await page.getByRole('button', { name: 'Start Deployment' }).click();
    await expectPath(page, '/billing/operator/web-shop');
    await expectTexts(page, [
      'Complete Your Subscription',
      'A tiny busybox web shop',
      // No payment provider is configured: the free beta says so plainly (issue 17).
      'The beta is free',
      'What happens next?',
    ]);
    expect(await page.getByTestId('billing-price').textContent()).toContain('$0');
    await screenshot(page, 'deploy-flow-09-billing');

    const variables = await page.request.get(at('/api/env-variables/web-shop'));
    expect(variables.status()).toBe(200);
    const stored = (await variables.json()) as { variables: { key: string; value: string }[] };
    expect(stored.variables).toEqual(
      expect.arrayContaining([
        { key: 'API_KEY', value: 'overridden' },
        { key: 'GREETING', value: 'hello world' },
        { key: 'PORT', value: '8080' },
      ]),
    );

    await page.getByRole('button', { name: 'Start Subscription & Deploy' }).click();
    await expectPath(page, '/deploy/operator/web-shop');
    await page.getByTestId('phase-indicator').waitFor({ timeout: 30_000 });
    await page.getByTestId('step-list').waitFor();
    await expectTexts(page, [
      'Phase 1: Provisioning',
      'Provision VM',
      'Deploy application',
      'Post deployment',
    ]);
    await screenshot(page, 'deploy-flow-10-progress');
  });

  it.skipIf(!dockerIsReady)(
    'watches the deployment go live',
    async () => {
      await expectText(page, 'Deployment Successful!', { timeout: 170_000 }).catch(async (error: Error) => {
        await screenshot(page, 'deploy-flow-11-not-live');
        throw error;
      });
      await expectTexts(page, [
        'web-shop is now live',
        'Live',
        "What's Next",
        'View Dashboard',
        'Deploy Another App',
      ]);
      await screenshot(page, 'deploy-flow-11-success');
      const href = await page.getByTestId('site-url').getAttribute('href');
      expect(href).toMatch(/^https?:\/\//);
      const site = new URL(href ?? '');
      expect(site.protocol).toBe('https:');
      expect(await httpsGet(site, caddy!.rootCertificate())).toContain('web shop is up');
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
      await page.getByTestId('completion-banner').waitFor({ state: 'detached', timeout: 8000 });
    },
    200_000,
  );

  it('shows the subscription the billing step created, with its trial notice', async () => {
    await page.goto(at('/subscriptions'));
    const card = page.getByTestId('subscription');
    await card.first().waitFor();
    expect(await card.count()).toBe(1);
    await expectTexts(page, ['trialing', 'BASIC_1GB', 'View Invoices']);
    await screenshot(page, 'deploy-flow-11b-subscription');
    await card.getByRole('link', { name: 'View Invoices' }).click();
    await expectTexts(page, ['Subscription Invoices', 'Trial Period Active']);
    await screenshot(page, 'deploy-flow-11c-trial-invoices');
  });

  it('explains a payment that cannot be matched to a deployment', async () => {
    await page.goto(at('/payment-success?subscription_id=missing'));
    await expectText(page, 'Processing Payment...');
    await screenshot(page, 'deploy-flow-12-payment-processing');
    await expectTexts(page, [
      'Payment Issue',
      'No deployment data found',
      'Try Again',
      'Return to Dashboard',
    ]);
    await screenshot(page, 'deploy-flow-13-payment-issue');
  });

  it('returns from the payment provider, deploys, and explains a failure', async () => {
    await page.evaluate(() =>
      localStorage.setItem(
        'pendingDeployment',
        JSON.stringify({
          selectedRepo: { id: 1, name: 'no-ports-app', owner: { login: 'operator' } },
          selectedBranch: 'main',
          selectedVmSize: 'Standard_B2als_v2',
          subscriptionId: 'sub-e2e',
        }),
      ),
    );
    await page.goto(at('/payment-success?subscription_id=sub-e2e'));
    await expectTexts(page, ['Payment Successful!', 'operator/no-ports-app', 'Standard_B2als_v2']);
    await screenshot(page, 'deploy-flow-14-payment-success');
    expect(await page.evaluate(() => localStorage.getItem('pendingDeployment'))).toBeNull();
    await expectPath(page, '/deploy/operator/no-ports-app');
    await page.getByTestId('phase-indicator').waitFor({ timeout: 30_000 });
    if (!dockerIsReady) return;

    await expectText(page, 'Deployment Failed', { timeout: 120_000 });
    await expectTexts(page, [
      'None of these services exposed any ports. Check your docker-compose.yml port mappings.',
      /^Expected services:/,
      'Need Help?',
      'Try Different Configuration',
      'Return to Dashboard',
    ]);
    expect(await page.getByTestId('step-progress-count').textContent()).toMatch(/^\d+\/9 steps completed$/);
    await expectTexts(page, ['4 GB RAM (Standard_B2als_v2)', 'sub-e2e']);
    await page.getByRole('button', { name: 'Troubleshooting Guide' }).click();
    await expectText(page, 'Troubleshooting a failed deployment');
    await screenshot(page, 'deploy-flow-15-failure');
  });
});
