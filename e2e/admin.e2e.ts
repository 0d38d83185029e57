import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackSmtp, startLoopbackSmtp } from '../apps/server/src/test/smtp.js';
import { chromiumAvailable, launchBrowser, type RunningBrowser, screenshot } from './harness/browser.js';
import { expectPath, expectText, expectTexts, holdResponses } from './harness/page.js';
import { type RunningServer, startServer } from './harness/server.js';
import { assertWebBuilt } from './harness/webBuild.js';

const run = promisify(execFile);
const WANDA = 'wanda@example.test';

/**
 * The admin panel against the real server: admin password from the data dir's secrets.json, a loopback
 * SMTP server for the welcome emails, and a real busybox container for System Monitoring.
 */
describe.skipIf(!chromiumAvailable())('admin panel', () => {
  let server: RunningServer;
  let smtp: LoopbackSmtp;
  let admin: RunningBrowser;
  let user: RunningBrowser;
  let page: Page;
  let adminPassword: string;
  const containerName = `slipway-e2e-admin-${process.pid}-${Date.now()}`;
  const at = (p: string) => `${server.url}${p}`;

  /** Status of a call made from the admin's browser (its cookies). */
  const adminCall = (p: string) => page.evaluate(async (url) => (await fetch(url)).status, p);
  const tab = (name: string) => page.getByRole('tab', { name, exact: true }).click();
  const panel = (id: string) => page.locator(`#admin-panel-${id}`);
  const dialog = () => page.getByRole('dialog');

  beforeAll(async () => {
    assertWebBuilt();
    smtp = await startLoopbackSmtp();
    server = await startServer({ SMTP_URL: smtp.url, LOG_LEVEL: 'info' });
    const secrets = JSON.parse(await readFile(path.join(server.dataDir, 'secrets.json'), 'utf8')) as {
      adminPassword: string;
    };
    adminPassword = secrets.adminPassword;
    await run('docker', [
      'run',
      '-d',
      '--rm',
      '--label',
      'slipway.e2e=admin-monitoring',
      '--name',
      containerName,
      'busybox:1.36',
      // Outlives the suite however slow the machine is; afterAll removes it.
      'sleep',
      '3600',
    ]);
    admin = await launchBrowser({ viewport: { width: 1440, height: 900 } });
    await admin.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = admin.page;
    user = await launchBrowser();
    // The local operator (whitelisted, no email) exists once it has signed in.
    await user.page.goto(at('/api/auth/github/install'));
    await expectPath(user.page, '/repository-picker');
  });

  afterAll(async () => {
    await run('docker', ['rm', '-f', containerName]).catch(() => undefined);
    await admin?.close();
    await user?.close();
    await server?.stop();
    await smtp?.close();
  });

  it('checks the admin session, then refuses a wrong password', async () => {
    const sessionCheck = await holdResponses(page, '**/api/admin/session-status');
    await page.goto(at('/admin'));
    await expectText(page, 'Checking admin session...');
    await sessionCheck.release();
    await expectTexts(page, ['Admin Access', 'Access Admin Panel']);
    expect(await adminCall('/api/admin/stats')).toBe(401);

    await page.getByLabel('Admin Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Access Admin Panel' }).click();
    await expectText(page, 'Invalid admin password');
    await screenshot(page, 'admin-01-login-refused');
  });

  it('signs in with the admin password (Enter submits) and shows the stat cards', async () => {
    await page.getByLabel('Admin Password').fill(adminPassword);
    await page.getByLabel('Admin Password').press('Enter');
    await expectTexts(page, [
      'Admin Panel',
      'Total Users',
      'Active VMs',
      'Workspaces',
      'Recent Jobs',
      'Logout',
    ]);
    for (const name of [
      'All Users',
      'Whitelist Management',
      'VMs',
      'Workspaces',
      'System Logs',
      'Redis Management',
      'System Monitoring',
    ]) {
      await page.getByRole('tab', { name, exact: true }).waitFor();
    }
    await expectText(page, '1 whitelisted');
    await expectText(page, '@operator');
    // Tabs load lazily: only the first one has been rendered.
    expect(await page.locator('[role="tabpanel"]').count()).toBe(1);
    expect(await adminCall('/api/admin/stats')).toBe(200);
    await screenshot(page, 'admin-02-all-users');
  });

  it('whitelists a waiting user, who then reaches the picker and gets the welcome email', async () => {
    const u = user.page;
    await u.goto(at('/api/auth/github/install?as=waiting'));
    await expectPath(u, '/complete-profile');
    await u.getByLabel('First Name').fill('Wanda');
    await u.getByLabel('Last Name').fill('Waits');
    await u.getByLabel('Email').fill(WANDA);
    await u.getByRole('button', { name: 'Complete Profile' }).click();
    await expectPath(u, '/waiting-list');

    await tab('Whitelist Management');
    const waiting = panel('whitelist').getByRole('table', { name: 'Waiting list' });
    await waiting.getByText('@waiting-user').waitFor();
    await screenshot(page, 'admin-03-whitelist-management');
    await waiting.getByRole('button', { name: 'Whitelist', exact: true }).click();
    await expectText(
      page,
      `✅ User waiting-user whitelisted successfully. 📧 Welcome email sent to ${WANDA}`,
    );
    const shownAt = Date.now();
    await panel('whitelist')
      .getByRole('table', { name: 'Whitelisted users' })
      .getByText('@waiting-user')
      .waitFor();
    await expectText(page, '2 whitelisted');

    const mail = await smtp.waitFor((m) => m.to.includes(WANDA));
    expect(mail.subject).toContain('waiting list');
    expect(mail.text).toContain('/repository-picker');

    await u.goto(at('/repository-picker'));
    await expectPath(u, '/repository-picker');

    // The single-whitelist notice clears itself after 5 s.
    await page
      .getByText(`✅ User waiting-user whitelisted successfully. 📧 Welcome email sent to ${WANDA}`, {
        exact: true,
      })
      .waitFor({ state: 'hidden', timeout: 10_000 });
    expect(Date.now() - shownAt).toBeGreaterThan(3_500);
  });

  it('removes users from the whitelist and bulk-whitelists them again', async () => {
    await tab('All Users');
    const users = panel('users');
    await users.getByRole('button', { name: 'Refresh' }).click();
    for (const login of ['waiting-user', 'operator']) {
      const row = users.locator(`[data-testid^="user-row-"]`).filter({ hasText: `@${login}` });
      await row.getByRole('button', { name: 'Remove from whitelist' }).click();
      await row.getByRole('button', { name: 'Whitelist', exact: true }).waitFor();
    }
    await expectText(page, '0 whitelisted');
    await users.getByLabel('Select waiting-user').check();
    await users.getByLabel('Select operator').check();
    const before = smtp.messages.length;
    await users.getByRole('button', { name: 'Whitelist Selected (2)' }).click();
    await expectText(
      page,
      '✅ Bulk whitelist complete: 2 users whitelisted, 1 email sent, 0 emails failed, 1 user without an email',
    );
    await screenshot(page, 'admin-04-bulk-whitelist');
    await smtp.waitFor((m) => m.to.includes(WANDA) && smtp.messages.indexOf(m) >= before);
    await expectText(page, '2 whitelisted');
    // The list refreshes after the summary: wait for both rows to show it rather than reading it once.
    const removeButtons = users.getByRole('button', { name: 'Remove from whitelist' });
    await expect.poll(() => removeButtons.count(), { timeout: 15_000 }).toBe(2);
    expect(await users.getByRole('button', { name: 'Whitelist', exact: true }).count()).toBe(0);
  });

  it('adds and removes emails on the email whitelist', async () => {
    await tab('Whitelist Management');
    const section = panel('whitelist');
    const add = section.getByRole('button', { name: 'Add', exact: true });
    const email = section.getByLabel('Email', { exact: true });
    await email.fill('   ');
    expect(await add.isDisabled()).toBe(true);

    await email.fill('  Person+beta@Example.test ');
    await section.getByLabel('Notes (optional)').fill('   ');
    await add.click();
    await expectText(page, '✅ Email added to whitelist successfully');
    const table = section.getByRole('table', { name: 'Whitelisted emails' });
    const row = table.getByRole('row').filter({ hasText: 'person+beta@example.test' });
    await row.waitFor();
    expect(await row.textContent()).toContain('admin');
    const stored = await page.evaluate(async () => (await fetch('/api/admin/whitelist/emails')).json());
    expect(stored.emails).toEqual([
      expect.objectContaining({ email: 'person+beta@example.test', notes: null, added_by: 'admin' }),
    ]);

    await email.fill('second@example.test');
    await section.getByLabel('Notes (optional)').fill('  from the conference  ');
    await add.click();
    await table.getByRole('row').filter({ hasText: 'from the conference' }).waitFor();
    // Email notices clear after 3 s.
    await page
      .getByText('✅ Email added to whitelist successfully')
      .waitFor({ state: 'hidden', timeout: 6_000 });
    await screenshot(page, 'admin-05-email-whitelist');

    // The + must survive the URL: DELETE /api/admin/whitelist/emails/person%2Bbeta%40example.test
    await row.getByRole('button', { name: 'Remove person+beta@example.test' }).click();
    await expectText(page, 'Remove person+beta@example.test from whitelist?');
    await dialog().getByRole('button', { name: 'Remove' }).click();
    await expectText(page, '✅ Email removed from whitelist');
    await row.waitFor({ state: 'detached' });
    expect(await table.getByRole('row').filter({ hasText: 'second@example.test' }).count()).toBe(1);
  });

  it('lists VMs and workspaces as the server has them (none on a fresh install)', async () => {
    await tab('VMs');
    await expectTexts(page, ['Virtual Machines', 'No VMs found', '0 total']);
    await screenshot(page, 'admin-06-vms');
    await tab('Workspaces');
    await panel('workspaces').getByText('No workspaces found').waitFor();
    await screenshot(page, 'admin-07-workspaces');
  });

  it('shows the system logs as text', async () => {
    // A user agent with markup lands in the web access log; it must show as text.
    await fetch(at('/status'), { headers: { 'User-Agent': '<b>bold-agent</b>' } });
    await tab('System Logs');
    const logs = panel('logs');
    await logs.getByTestId('log-service-backend').getByText('available').waitFor();
    await logs.getByTestId('log-service-frontend').getByText('available').waitFor();
    const frontend = logs.getByTestId('log-lines-frontend');
    await frontend.waitFor();
    // The request this test just made: earlier page loads' asset requests may have pushed '/admin' out of the tail.
    expect(await frontend.textContent()).toContain('GET /status');
    expect(await frontend.textContent()).toContain('<b>bold-agent</b>');
    expect(await logs.locator('pre b').count()).toBe(0);
    const backend = (await logs.getByTestId('log-lines-backend').textContent()) ?? '';
    expect(backend.split('\n').length).toBeGreaterThan(0);
    expect(backend.split('\n').length).toBeLessThanOrEqual(50);
    await screenshot(page, 'admin-08-system-logs');
  });

  it('impersonates a user with a token that signs in as them', async () => {
    await tab('All Users');
    const row = panel('users').locator('[data-testid="user-row-waiting-user"]');
    await row.getByRole('button', { name: 'Impersonate' }).click();
    await dialog().getByText('Impersonation Token').waitFor();
    const token = ((await dialog().getByTestId('impersonation-token').textContent()) ?? '').trim();
    expect(token.length).toBeGreaterThan(20);
    const link = dialog().getByRole('link', { name: /\/api\/auth\/impersonate\?token=/ });
    expect(await link.textContent()).toBe(await link.getAttribute('href'));
    expect(new URL((await link.getAttribute('href')) ?? '').searchParams.get('token')).toBe(token);
    await dialog().getByRole('button', { name: 'Copy Token' }).click();
    await dialog().getByText('Token copied to the clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await screenshot(page, 'admin-09-impersonation');
    await dialog().getByRole('button', { name: 'Close', exact: true }).click();
    await dialog().waitFor({ state: 'detached' });

    const other = await launchBrowser();
    try {
      await other.page.goto(at(`/api/auth/impersonate?token=${encodeURIComponent(token)}`));
      const me = await other.page.evaluate(async () => (await fetch('/api/user')).json());
      expect(JSON.stringify(me)).toContain('waiting-user');
    } finally {
      await other.close();
    }
  });

  it('shows Redis (not configured here) and flushes sessions by type', async () => {
    await tab('Redis Management');
    const redis = panel('redis');
    await redis.getByText('Not connected').waitFor();
    await redis
      .getByText(/^Redis is not configured: sessions, jobs and workflows are stored in the database\. /)
      .waitFor();
    const sessionsBefore = Number(
      await redis.getByTestId('redis-count-sessions').locator('p').nth(1).textContent(),
    );
    expect(sessionsBefore).toBeGreaterThan(0);
    await screenshot(page, 'admin-10-redis');

    await redis.getByRole('button', { name: 'Flush All' }).click();
    await expectText(
      page,
      'This will flush ALL Redis data including sessions, job queue, and workflows. Are you sure?',
    );
    await dialog().getByRole('button', { name: 'Cancel' }).click();

    await redis.getByRole('button', { name: 'Flush Sessions' }).click();
    await expectText(page, 'This will flush all sessions data. Are you sure?');
    await dialog().getByRole('button', { name: 'Flush' }).click();
    await page.getByText(/^Flushed \d+ sessions keys$/).waitFor();
    // The user's session is gone; the admin's was kept.
    expect(await user.page.evaluate(async () => (await fetch('/api/user')).status)).toBe(401);
    expect(await adminCall('/api/admin/stats')).toBe(200);
    await page.getByText(/^Flushed \d+ sessions keys$/).waitFor({ state: 'hidden', timeout: 6_000 });
  });

  it('shows real container numbers in System Monitoring', async () => {
    const { stdout } = await run('docker', ['info', '--format', '{{.NCPU}}']);
    await tab('System Monitoring');
    const monitoring = panel('monitoring');
    const machine = monitoring.getByTestId('machine-info');
    await machine.getByText('System Information').waitFor();
    expect(await machine.textContent()).toContain(`CPU cores${stdout.trim()}`);
    expect(await monitoring.getByLabel('Refresh interval').inputValue()).toBe('5000');
    const card = monitoring.getByTestId('container-card').filter({ hasText: containerName });
    await card.waitFor({ timeout: 20_000 });
    const text = (await card.textContent()) ?? '';
    expect(text).toContain('busybox:1.36');
    expect(text).toMatch(/Working set\d+(\.\d)? (B|KB|MB)/);
    expect(text).toMatch(/CPU\d+\.\d%/);
    expect(text).toMatch(/Network RX \/ TX/);

    // Containers are read again on every interval; the machine only once.
    // Waits for two interval reads (each `docker stats` read may take a second or two) and counts machine reads.
    let machineCalls = 0;
    const countMachine = (request: { url(): string }) => {
      if (request.url().endsWith('/cadvisor/api/v1.3/machine')) machineCalls += 1;
    };
    page.on('request', countMachine);
    const containerRead = () =>
      page.waitForResponse((response) => response.url().endsWith('/cadvisor/api/v1.3/containers'), {
        timeout: 20_000,
      });
    const firstRead = containerRead();
    await monitoring.getByLabel('Refresh interval').selectOption('2000');
    await firstRead;
    await containerRead();
    page.off('request', countMachine);
    expect(machineCalls).toBe(0);
    await monitoring.getByRole('button', { name: 'Refresh Now' }).click();
    await monitoring.getByLabel('Refresh interval').selectOption('0');
    await screenshot(page, 'admin-11-system-monitoring');
  });

  it('logs out, and rate-limits password guesses with the server message', async () => {
    await page.getByRole('button', { name: 'Logout' }).click();
    await expectText(page, 'Admin Access');
    expect(await adminCall('/api/admin/stats')).toBe(401);

    const field = page.getByLabel('Admin Password');
    const limited = page.getByText('Too many attempts. Wait a minute and try again.', { exact: true });
    for (let attempt = 0; attempt < 8 && !(await limited.isVisible()); attempt += 1) {
      await field.fill(`wrong-${attempt}`);
      // Each guess is answered before the next is made, so the message read belongs to this guess.
      await Promise.all([
        page.waitForResponse(
          (response) => response.request().method() === 'POST' && response.url().endsWith('/api/admin/auth'),
        ),
        page.getByRole('button', { name: 'Access Admin Panel' }).click(),
      ]);
    }
    await expectText(page, 'Too many attempts. Wait a minute and try again.');
    await screenshot(page, 'admin-12-rate-limited');
  });
});
