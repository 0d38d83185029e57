import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchBrowser, type RunningBrowser, screenshot } from './harness/browser.js';
import { expectPath, expectText, expectTexts } from './harness/page.js';
import { type RunningServer, startServer } from './harness/server.js';
import { assertWebBuilt } from './harness/webBuild.js';

/** apps/web/src/app/deploymentSelection.ts stores the deployment being assembled under this key. */
const DEPLOYMENT_SELECTION_KEY = 'slipway.deploymentSelection';

describe.skipIf(!chromiumAvailable())('foundation: landing, sign-in, guards, profile, public pages', () => {
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  const at = (path: string) => `${server.url}${path}`;

  beforeAll(async () => {
    assertWebBuilt();
    server = await startServer();
    browser = await launchBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the landing page with the spec texts and no third-party content', async () => {
    const external: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url) && !request.url().startsWith('data:'))
        external.push(request.url());
    });
    await page.goto(at('/'));
    await expectTexts(page, [
      'Limited whitelist access',
      'Join Free Beta Whitelist',
      'See How It Works',
      'Sign in with GitHub',
      'Bastion-style isolation',
      'No SSH access',
      /key vault/,
      /exported via an API/,
      'Non-dockerized apps are unsupported',
      'Rollback is coming soon',
      /Persistent storage through storage containers/,
      /The beta is free/,
      'Contact Enterprise Sales',
      'Developer FAQ',
      'Beta Available Now',
      'Privacy Policy',
      'Terms of Service',
    ]);
    // Pricing comes from VM_SIZES in the contract.
    const pricing = page.locator('#pricing');
    await expectText(page, '1 GB RAM');
    expect(await pricing.textContent()).toMatch(/1 GB RAM[\s\S]*\$12[\s\S]*4 GB RAM[\s\S]*\$30/);
    expect(await pricing.textContent()).toContain('Free during beta');
    // Footer columns.
    const footer = page.locator('footer');
    for (const label of ['Features', 'FAQ', 'Documentation', 'Get Started', 'Status', 'Contact']) {
      expect(await footer.getByText(label, { exact: true }).count()).toBeGreaterThan(0);
    }
    // FAQ answers open on click.
    await page.getByText('Can I SSH into my VM?').click();
    await expectText(page, /There is no SSH access/);
    expect(await page.locator('iframe').count()).toBe(0);
    await screenshot(page, '01-landing');
    expect(external).toEqual([]);
  });

  it('scrolls to landing sections from the header, going home first from other pages', async () => {
    await page.goto(at('/terms'));
    await expectText(page, 'Back to Home');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Pricing' }).click();
    await expectPath(page, '/');
    await page.waitForFunction(() => {
      const section = document.getElementById('pricing');
      return section !== null && Math.abs(section.getBoundingClientRect().top) < 120;
    });
  });

  it('sends signed-out visitors from protected pages to the landing page', async () => {
    await page.goto(at('/repository-picker'));
    await expectPath(page, '/');
    await expectText(page, 'Limited whitelist access');
    await page.goto(at('/waiting-list'));
    await expectPath(page, '/');
  });

  it('keeps signed-out visitors on the public pages and renders their key texts', async () => {
    const pages: Array<[string, (string | RegExp)[]]> = [
      [
        '/terms',
        [
          'Terms of Service',
          'Last updated: January 15, 2024',
          '1. Agreement to Terms',
          '4. Acceptable Use',
          /30 days notice/,
          /monthly in advance/,
          /non-refundable unless required by law/,
          /billed monthly in arrears/,
          /99\.9% uptime/,
          'Urgent: 30 minutes',
          'Low: 24 hours',
          /amount you paid us in the 12 months/,
          /deleted within 30 days/,
          /State of California/,
          /phone and SMS alerts/,
          /One-click rollback/,
          /automatic SSL/,
        ],
      ],
      ['/privacy', ['Privacy Policy', /children under 13/]],
      [
        '/documentation',
        [
          'Documentation',
          'Getting started',
          'Supported apps',
          'Docker Compose',
          'Notifications',
          'Custom domains and SSL',
        ],
      ],
      ['/status', ['System Status', 'All Systems Operational', 'Recent incidents', 'Subscribe to updates']],
      ['/contact', ['Contact Us', /Support replies within 2 hours/, 'Frequently asked questions']],
      [
        '/upcoming-features',
        ['Upcoming Features', 'Q2 2025', 'Q3 2025', /One-click rollback/, 'Coming soon'],
      ],
    ];
    for (const [path, texts] of pages) {
      // The silent 401 of the session check must not bounce visitors to '/': wait for that answer, and for
      // the page to settle after it, before reading where the browser is.
      const sessionCheck = page.waitForResponse((response) => response.url().endsWith('/api/user'));
      await page.goto(at(path));
      await expectTexts(page, texts);
      expect((await sessionCheck).status()).toBe(401);
      await page.waitForLoadState('networkidle');
      expect(new URL(page.url()).pathname).toBe(path);
      await screenshot(page, `02-public${path.replaceAll('/', '-')}`);
    }
    await page.goto(at('/terms'));
    // The screen is a lazy chunk: wait for its text before counting its links.
    await expectTexts(page, ['1. Agreement to Terms']);
    expect(await page.locator('main a[href="/privacy"]').count()).toBeGreaterThan(0);
    expect(await page.locator('main a[href="/contact"]').count()).toBeGreaterThan(0);
  });

  it('submits the enterprise form to the API and thanks the visitor', async () => {
    await page.goto(at('/enterprise-contact'));
    await page.getByLabel('Company Name').fill('Acme Corp');
    await page.getByLabel('Contact Name').fill('Wile E. Coyote');
    await page.getByLabel('Email').fill('wile@acme.test');
    await page.getByLabel('Company Size').selectOption('51-200');
    await page.getByLabel('Timeline').selectOption('short');
    await page.getByLabel('Use Case').fill('Deploy our internal tools');
    expect(await page.getByLabel('Email').getAttribute('type')).toBe('email');
    await screenshot(page, '03-enterprise-form');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/enterprise-contact')),
      page.getByRole('button', { name: 'Submit Inquiry' }).click(),
    ]);
    expect(response.status()).toBe(201);
    const sent = response.request().postDataJSON() as Record<string, string>;
    expect(sent).toMatchObject({ companyName: 'Acme Corp', companySize: '51-200', timeline: 'short' });
    expect(Number.isNaN(Date.parse(sent.submittedAt ?? ''))).toBe(false);
    await expectText(page, 'Thank you for your interest!');
    await screenshot(page, '04-enterprise-thanks');
  });

  it('signs in a user who is not whitelisted, validates and completes the profile', async () => {
    await page.goto(at('/api/auth/github/install?as=waiting'));
    await expectPath(page, '/complete-profile');
    await expectTexts(page, ['Complete Your Profile', '@waiting-user']);
    // The name "Waiting User" is split on the first space.
    expect(await page.getByLabel('First Name').inputValue()).toBe('Waiting');
    expect(await page.getByLabel('Last Name').inputValue()).toBe('User');

    await page.getByLabel('First Name').fill('');
    await page.getByLabel('Last Name').fill(' ');
    await page.getByRole('button', { name: 'Complete Profile' }).click();
    await expectTexts(page, ['First name is required', 'Last name is required', 'Email is required']);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Complete Profile' }).click();
    await expectText(page, 'Please enter a valid email address');
    await screenshot(page, '05-complete-profile-errors');

    await page.getByLabel('First Name').fill('Wanda');
    await page.getByLabel('Last Name').fill('Waits');
    await page.getByLabel('Email').fill('wanda@example.test');
    await page.getByRole('button', { name: 'Complete Profile' }).click();
    await expectPath(page, '/waiting-list');
    await expectTexts(page, [
      "You're on the Waiting List!",
      'Currently in high demand',
      'Wanda Waits',
      '@waiting-user',
      'wanda@example.test',
      "You're registered!",
      "We'll notify you as soon as we're ready to welcome new users.",
      'What happens next?',
      '1. Application review',
      '2. Early access',
    ]);
    await screenshot(page, '06-waiting-list');
  });

  it('keeps a user who is not whitelisted out of whitelisted pages', async () => {
    await page.goto(at('/repository-picker'));
    await expectPath(page, '/waiting-list');
    await page.goto(at('/'));
    await expectPath(page, '/waiting-list');
    await page.goto(at('/github-app-permissions'));
    await expectTexts(page, [
      'GitHub App Not Installed',
      'Repository Contents',
      'Repository Metadata',
      'Deployment Status',
      'Install GitHub App',
      'Continue with OAuth (Less Secure)',
    ]);
    await screenshot(page, '07-github-app-permissions');
  });

  it('logs out back to the landing page', async () => {
    await page.getByRole('button', { name: /waiting-user/ }).click();
    // A user on the waiting list has no subscriptions to manage: the menu offers Logout only.
    await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Subscriptions' }).count()).toBe(0);
    await screenshot(page, '08-user-menu');
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expectPath(page, '/');
    await expectText(page, 'Limited whitelist access');
    const status = await page.evaluate(async () => (await fetch('/api/user')).status);
    expect(status).toBe(401);
  });

  it('signs in the whitelisted operator with the header button and lands on the repository picker', async () => {
    // The interim label shows while the browser leaves for sign-in: an observer notes it in sessionStorage
    // (which the same-origin redirect keeps), so no timing decides whether the test sees it.
    await page.evaluate(() => {
      new MutationObserver(() => {
        const labels = [...document.querySelectorAll('button')].map((button) => button.textContent?.trim());
        if (labels.includes('Redirecting to GitHub...')) sessionStorage.setItem('e2e.sawRedirecting', 'yes');
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('banner').getByRole('button', { name: 'Sign in with GitHub' }).click();
    await expectPath(page, '/repository-picker');
    expect(await page.evaluate(() => sessionStorage.getItem('e2e.sawRedirecting'))).toBe('yes');
    await expectText(page, 'Choose Repository to Deploy');
    const header = page.getByRole('banner');
    expect(await header.getByRole('button', { name: 'Deploy New' }).count()).toBe(0);
    expect(await header.getByRole('link', { name: 'Dashboard' }).count()).toBe(1);
    await screenshot(page, '09-repository-picker');
  });

  it('Deploy New clears the stored deployment selection and opens the picker', async () => {
    await page.goto(at('/github-app-permissions'));
    await expectText(page, /^GitHub App (Installed \(\d+ installations?\)|Not Installed)$/);
    await page.evaluate((key) => {
      sessionStorage.setItem(
        key,
        JSON.stringify({ selectedRepo: { id: 1, name: 'x', owner: { login: 'o' } } }),
      );
    }, DEPLOYMENT_SELECTION_KEY);
    await page.getByRole('banner').getByRole('button', { name: 'Deploy New' }).click();
    await expectPath(page, '/repository-picker');
    expect(await page.evaluate((key) => sessionStorage.getItem(key), DEPLOYMENT_SELECTION_KEY)).toBeNull();
  });

  it('offers the same items in the mobile menu', async () => {
    // A whitelisted user has nothing to wait for.
    await page.goto(at('/waiting-list'));
    await expectPath(page, '/repository-picker');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(at('/github-app-permissions'));
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.locator('#mobile-menu');
    for (const label of ['Deploy New', 'Dashboard', 'Subscriptions', 'Logout']) {
      await menu.getByText(label, { exact: true }).waitFor();
    }
    await screenshot(page, '10-mobile-menu-signed-in');
    await menu.getByText('Logout', { exact: true }).click();
    await expectPath(page, '/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.locator('#mobile-menu').getByText('Sign in with GitHub').waitFor();
    await screenshot(page, '11-landing-mobile');
    await page.setViewportSize({ width: 1280, height: 860 });
  });
});
