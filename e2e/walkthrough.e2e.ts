import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './harness/a11y.js';
import { apiCall } from './harness/api.js';
import { chromiumAvailable, launchBrowser, type RunningBrowser, SCREENSHOT_DIR } from './harness/browser.js';
import { makeRepo } from './harness/gitRepos.js';
import { expectPath, expectText, expectTexts } from './harness/page.js';
import { type RunningServer, startServer } from './harness/server.js';
import { screenshotBothSizes, VIEWPORTS } from './harness/viewports.js';
import { assertWebBuilt } from './harness/webBuild.js';

const OWNER = 'operator';
const REPO = 'walk-demo';
/** A video host nobody can reach from here: the browser's requests to it are answered by the test. */
const VIDEO_URL = 'https://video.example.test/embed/slipway-demo';

/**
 * Issue 17: every screen walked as a new user, a waiting-list user and an admin, against the real
 * server with a real deployment (busybox httpd through the local engine).
 */
describe.skipIf(!chromiumAvailable())('walk-through: the last spec gaps of issue 17', () => {
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  let reposDir: string;
  let deployed = false;
  const a11y: string[] = [];
  const at = (p: string) => `${server.url}${p}`;
  const call = (method: string, p: string, data?: unknown) => apiCall(browser, server.url, method, p, data);
  const checkA11y = async () => {
    a11y.push(...(await seriousA11yViolations(page)));
  };

  beforeAll(async () => {
    assertWebBuilt();
    reposDir = mkdtempSync(path.join(tmpdir(), 'slipway-walk-repos-'));
    makeRepo(
      reposDir,
      OWNER,
      REPO,
      {
        Dockerfile: [
          'FROM busybox:1.36',
          'RUN mkdir -p /www && echo "walk demo" > /www/index.html',
          'EXPOSE 8000',
          'CMD ["httpd", "-f", "-p", "8000", "-h", "/www"]',
          '',
        ].join('\n'),
      },
      { ageDays: 8, branches: ['develop'] },
    );
    server = await startServer({ LOCAL_REPOS_DIR: reposDir, DEMO_VIDEO_URL: VIDEO_URL });
    browser = await launchBrowser({ viewport: VIEWPORTS.desktop });
    page = browser.page;
  });

  afterAll(async () => {
    if (deployed) await call('DELETE', `/api/workspace-delete/${REPO}`).catch(() => undefined);
    await browser?.close();
    await server?.stop();
    if (reposDir) rmSync(reposDir, { recursive: true, force: true });
  });

  it('3: the landing page shows a poster of Slipway and loads the demo video only on click', async () => {
    const thirdParty: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url) && !request.url().startsWith('data:'))
        thirdParty.push(request.url());
    });
    await page.route('https://video.example.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>demo</title><p>demo video</p>' }),
    );
    await page.goto(at('/'));
    const play = page.getByRole('button', { name: 'Play the Slipway demo video' });
    await play.waitFor();
    await expectText(page, 'Watch the demo video');
    const poster = play.locator('img');
    await page.waitForFunction(
      () => ((document.querySelector('#how-it-works img') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0,
    );
    expect(await poster.getAttribute('src')).toBe('/demo-poster.jpg');
    expect(await page.locator('iframe').count()).toBe(0);
    await checkA11y();
    await page.locator('#how-it-works').scrollIntoViewIfNeeded();
    await screenshotBothSizes(page, 'walk-03-landing-demo-poster');
    expect(thirdParty).toEqual([]);

    await play.click();
    const frame = page.locator('iframe[title="Slipway demo video"]');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toBe(VIDEO_URL);
    await expect.poll(() => thirdParty.some((url) => url.startsWith(VIDEO_URL))).toBe(true);
    await page.unroute('https://video.example.test/**');
  });

  it('public pages pass axe', async () => {
    for (const p of [
      '/documentation',
      '/status',
      '/contact',
      '/enterprise-contact',
      '/upcoming-features',
      '/privacy',
      '/terms',
      '/no-such-page',
    ]) {
      await page.goto(at(p));
      await page.locator('main, [role="main"], h1').first().waitFor();
      await checkA11y();
    }
  });

  it('9: a waiting-list user sees neither Deploy New nor Dashboard nor Subscriptions', async () => {
    const waiting = await launchBrowser({ viewport: VIEWPORTS.desktop });
    try {
      const w = waiting.page;
      await w.goto(at('/api/auth/github/install?as=waiting'));
      await expectPath(w, '/complete-profile');
      await w.getByLabel('First Name').waitFor();
      a11y.push(...(await seriousA11yViolations(w)));
      await w.getByLabel('First Name').fill('Wanda');
      await w.getByLabel('Last Name').fill('Waits');
      await w.getByLabel('Email').fill('wanda@example.test');
      await w.getByRole('button', { name: 'Complete Profile' }).click();
      await expectPath(w, '/waiting-list');
      await expectTexts(w, ["You're on the Waiting List!", 'Currently in high demand', "You're registered!"]);
      const header = w.locator('header');
      expect(await header.getByText('Deploy New').count()).toBe(0);
      expect(await header.getByText('Dashboard').count()).toBe(0);
      await header.getByRole('button', { name: /waiting-user/ }).click();
      const menu = w.getByRole('menu', { name: 'Account' });
      await menu.getByText('Logout').waitFor();
      expect(await menu.getByText('Subscriptions').count()).toBe(0);
      a11y.push(...(await seriousA11yViolations(w)));
      await screenshotBothSizes(w, 'walk-09-waiting-list-header');
      await w.keyboard.press('Escape');
      // The phone menu offers the same items: no Deploy New, Dashboard or Subscriptions either.
      await w.setViewportSize(VIEWPORTS.phone);
      await w.getByRole('button', { name: /menu/i }).first().click();
      await w.getByRole('button', { name: 'Logout' }).last().waitFor();
      for (const hidden of ['Deploy New', 'Dashboard', 'Subscriptions']) {
        expect(await w.getByText(hidden, { exact: true }).filter({ visible: true }).count(), hidden).toBe(0);
      }
      await w.goto(at('/github-app-permissions'));
      await expectText(w, /^GitHub App (Installed \(\d+ installations?\)|Not Installed)$/);
      a11y.push(...(await seriousA11yViolations(w)));
    } finally {
      await waiting.close();
    }
  });

  it('8: counts and ages read in proper plurals on the picker', async () => {
    await page.goto(at('/api/auth/github/install'));
    await expectPath(page, '/repository-picker', 30_000);
    await expectTexts(page, ['Choose Repository to Deploy', 'Showing 1 repository']);
    expect(await page.getByText('Showing 1 repositories').count()).toBe(0);
    // Committed 8 days ago: one week, in the singular.
    await expectText(page, '1 week ago');
    expect(await page.getByText('1 weeks ago').count()).toBe(0);
    await page.getByLabel('Search repositories').fill('walk');
    await expectText(page, 'Showing 1 repository matching "walk"');
    await checkA11y();
    await screenshotBothSizes(page, 'walk-08-picker-plurals');
    await page.getByLabel('Search repositories').fill('');
  });

  it('1: /deploy/{owner}/{repo} opened directly offers the start view with the default branch and VM size', async () => {
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(at(`/deploy/${OWNER}/${REPO}`));
    await expectTexts(page, ['Review Your Deployment', `${OWNER}/${REPO}`, 'Start Deployment']);
    expect(await page.getByText('Nothing to deploy yet').count()).toBe(0);
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain('main');
    expect(text).toContain('1 GB RAM');
    expect(new URL(page.url()).searchParams.get('sessionId')).toBeTruthy();
    await checkA11y();
    await screenshotBothSizes(page, 'walk-01-deploy-direct');
  });

  it('4: the billing step of the free beta says nothing will be charged, with one button to continue', async () => {
    await page.getByRole('button', { name: 'Start Deployment' }).click();
    await expectPath(page, `/billing/${OWNER}/${REPO}`);
    await expectTexts(page, [
      'Complete Your Subscription',
      'The beta is free',
      /^Nothing will be charged and no payment details are needed\. /,
      'Free during the beta',
    ]);
    expect(await page.getByRole('radio', { name: 'PayPal' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Start Subscription & Deploy' }).count()).toBe(1);
    await checkA11y();
    await screenshotBothSizes(page, 'walk-04-billing-free-beta');
  });

  it("2: billing's Back opens the picker without reopening the Configure Deployment dialog", async () => {
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await expectPath(page, '/repository-picker');
    await expectText(page, 'Showing 1 repository');
    expect(await page.getByRole('dialog').count()).toBe(0);
    // Back from the variables screen still reopens it once (the spec's rule).
    await page
      .getByRole('button', { name: new RegExp(REPO) })
      .first()
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Configure Deployment').waitFor();
    await checkA11y();
    await dialog
      .getByRole('button', { name: /Continue|Confirm|Deploy/ })
      .last()
      .click();
    await expectPath(page, `/env-variables/${REPO}`);
    await checkA11y();
    await page.getByRole('link', { name: 'Back to Repository' }).click();
    await expectPath(page, '/repository-picker');
    await page.getByRole('dialog').getByText('Configure Deployment').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  });

  it('deploys the repository through the free beta billing step', async () => {
    await page.goto(at(`/deploy/${OWNER}/${REPO}`));
    await page.getByRole('button', { name: 'Start Deployment' }).click();
    await expectPath(page, `/billing/${OWNER}/${REPO}`);
    await page.getByRole('button', { name: 'Start Subscription & Deploy' }).click();
    await page.waitForURL((url) => url.pathname === `/deploy/${OWNER}/${REPO}`);
    deployed = true;
    await expectText(page, 'Deploy Another App', { timeout: 240_000 });
  }, 300_000);

  it("2: 'Deploy Another App' opens the picker with the dialog closed", async () => {
    await page.getByRole('link', { name: 'Deploy Another App' }).click();
    await expectPath(page, '/repository-picker');
    await expectText(page, 'Showing 1 repository');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('7: a local repository shows its real location, not a github.com URL', async () => {
    await page.goto(at(`/monitoring?workspace=${REPO}`));
    const location = path.join(reposDir, OWNER, REPO);
    await expectText(page, location);
    expect(await page.getByText(`github.com/${OWNER}/${REPO}`).count()).toBe(0);
  });

  it("5: system health shows the workspace's VM: its vCPUs, its memory and its own network only", async () => {
    await page.getByRole('button', { name: 'Deploy System Health' }).click();
    const health = page.getByRole('region', { name: 'System information' });
    await health.waitFor({ timeout: 60_000 });
    const info = (await (await call('GET', `/api/monitoring/system-info/${REPO}`)).json()) as {
      system_info: { cpu_cores: number; memory_total: number; network_interfaces: { name: string }[] };
    };
    expect(info.system_info.cpu_cores).toBe(2);
    expect(info.system_info.memory_total).toBe(1024 ** 3);
    const names = info.system_info.network_interfaces.map((i) => i.name);
    expect(names.length).toBeGreaterThan(0);
    const { containers } = (await (
      await call('GET', `/api/monitoring/system-health-containers/${REPO}`)
    ).json()) as {
      containers: Record<string, unknown>;
    };
    const own = Object.keys(containers);
    expect(own.length).toBeGreaterThan(0);
    // Each interface is one of this workspace's containers' own (never lo, docker0 or a veth of the host).
    for (const name of names)
      expect(
        own.some((c) => name.startsWith(`${c}/`)),
        name,
      ).toBe(true);
    const text = (await health.textContent()) ?? '';
    expect(text).toContain('CPU cores2');
    expect(text).toContain('Memory total1.0 GB');
    const vm = page.getByRole('region', { name: 'VM health' });
    await vm.waitFor();
    expect((await vm.textContent()) ?? '').toContain('of 1.0 GB');
    await checkA11y();
    await screenshotBothSizes(page, 'walk-05-system-health');
  }, 120_000);

  it('signed-in pages pass axe', async () => {
    for (const [p, text] of [
      ['/dashboard', `${OWNER}/${REPO}`],
      [`/workspace-settings?workspace=${REPO}`, 'Workspace Settings'],
      ['/subscriptions', 'Subscription Management'],
      ['/invoices', 'Invoice History'],
      ['/github-app-permissions', /^GitHub App (Installed \(\d+ installations?\)|Not Installed)$/],
    ] as const) {
      await page.goto(at(p));
      await expectText(page, text);
      await checkA11y();
      if (p === '/dashboard') {
        // The source of the landing page's video poster (apps/web/public/demo-poster.jpg): Slipway's own dashboard.
        await page.getByRole('button', { name: 'Deploy Again' }).waitFor();
        await page.screenshot({
          path: path.join(SCREENSHOT_DIR, 'demo-poster-source.jpg'),
          type: 'jpeg',
          quality: 60,
        });
      }
    }
    await screenshotBothSizes(page, 'walk-00-github-app-permissions');
  });

  it('6: admin container cards show workspace, service, image and owner, with a filter and sorting', async () => {
    const { adminPassword } = JSON.parse(
      await readFile(path.join(server.dataDir, 'secrets.json'), 'utf8'),
    ) as {
      adminPassword: string;
    };
    await page.goto(at('/admin'));
    await page.getByLabel('Admin Password').fill(adminPassword);
    await checkA11y();
    await page.getByLabel('Admin Password').press('Enter');
    await expectText(page, 'Admin Panel');
    await checkA11y();
    for (const name of ['Whitelist Management', 'VMs', 'Workspaces', 'System Logs', 'Redis Management']) {
      await page.getByRole('tab', { name, exact: true }).click();
      await page.locator('[role="tabpanel"]:visible').first().waitFor();
      await checkA11y();
    }
    await page.getByRole('tab', { name: 'System Monitoring', exact: true }).click();
    await page.getByLabel('Filter containers').fill(REPO);
    const card = page
      .locator('[data-testid="container-card"]')
      .filter({ hasText: `Workspace${REPO}` })
      .first();
    await card.waitFor({ timeout: 30_000 });
    const text = (await card.textContent()) ?? '';
    expect(text).toContain(`Workspace${REPO}`);
    expect(text).toContain('Owner@operator');
    expect(text).toMatch(/Service(app|web|walk-demo|system)/);
    expect(text).toMatch(/Image\S+/);
    const count = await page.getByTestId('container-count').textContent();
    expect(count).toMatch(/^Showing \d+ of \d+ containers?$/);
    await page.getByLabel('Sort by').selectOption('owner');
    await page.getByLabel('Filter containers').fill('no-such-container-anywhere');
    await expectText(page, 'No containers match this filter');
    await page.getByLabel('Filter containers').fill(REPO);
    await card.waitFor();
    await checkA11y();
    await screenshotBothSizes(page, 'walk-06-admin-container-cards');
  }, 120_000);

  it('10: a stale chunk reloads the page once, then shows a plain message with a retry', async () => {
    await page.goto(at('/repository-picker'));
    await expectText(page, 'Choose Repository to Deploy');
    let documents = 0;
    const countDocuments = (request: { resourceType(): string }) => {
      if (request.resourceType() === 'document') documents++;
    };
    page.on('request', countDocuments);
    // The dashboard's chunk is gone, as after a new version was deployed.
    await page.route(/\/assets\/DashboardPage-[^/]*\.js$/, (route) => route.abort());
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await expectTexts(page, ['Something went wrong', 'Try Again']);
    // One reload by itself (the sessionStorage guard stops a second one).
    expect(documents).toBe(1);
    const body = (await page.locator('body').textContent()) ?? '';
    expect(body).not.toContain('Failed to fetch dynamically imported module');
    expect(body).not.toContain('Unexpected Application Error');
    await checkA11y();
    await screenshotBothSizes(page, 'walk-10-route-error');
    await page.unroute(/\/assets\/DashboardPage-[^/]*\.js$/);
    await page.getByRole('button', { name: 'Try Again' }).click();
    await expectText(page, `${OWNER}/${REPO}`);
    expect(await page.getByText('Something went wrong').count()).toBe(0);
    page.off('request', countDocuments);
  });

  it('has no serious or critical axe violations on any page visited', () => {
    expect([...new Set(a11y)]).toEqual([]);
  });
});
