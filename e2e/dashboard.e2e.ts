import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall } from './harness/api.js';
import { chromiumAvailable, launchBrowser, type RunningBrowser, screenshot } from './harness/browser.js';
import { makeRepo } from './harness/gitRepos.js';
import { expectPath, expectText, expectTexts } from './harness/page.js';
import { type RunningServer, startServer } from './harness/server.js';
import { assertWebBuilt } from './harness/webBuild.js';

const OWNER = 'operator';
const REPO = 'log-demo';
const XSS_LINE = '<script>window.__xss=1</script>';

/**
 * A real repository for the local deployment engine: busybox httpd that prints a few telling lines
 * (markup, an error, a warning) and then a heartbeat, so the live stream has something to deliver.
 */
function createLogDemoRepo(): { root: string; cleanup: () => void } {
  const root = mkdtempSync(path.join(tmpdir(), 'slipway-dash-repos-'));
  const script = [
    "echo 'booting log demo'",
    `echo '${XSS_LINE}'`,
    "echo 'ERROR: sample failure for the log viewer'",
    "echo 'warning: sample warning'",
    // `&` already ends the background loop's command: no `;` may follow it.
    '(i=0; while true; do i=$((i+1)); echo "tick $i"; sleep 1; done) & exec httpd -f -p 8000 -h /www',
  ].join('; ');
  makeRepo(root, OWNER, REPO, {
    Dockerfile: [
      'FROM busybox:1.36',
      'RUN mkdir -p /www && echo "log demo" > /www/index.html',
      'EXPOSE 8000',
      `CMD ["sh", "-c", ${JSON.stringify(script)}]`,
      '',
    ].join('\n'),
  });
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

describe.skipIf(!chromiumAvailable())('dashboard, monitoring and workspace settings', () => {
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  let repos: { root: string; cleanup: () => void };
  let deployed = false;
  const at = (p: string) => `${server.url}${p}`;

  const call = (method: string, path: string, data?: unknown) =>
    apiCall(browser, server.url, method, path, data);

  beforeAll(async () => {
    assertWebBuilt();
    repos = createLogDemoRepo();
    server = await startServer({ LOCAL_REPOS_DIR: repos.root });
    browser = await launchBrowser({ viewport: { width: 1440, height: 1000 } });
    page = browser.page;
    await page.goto(at('/api/auth/github/install'));
    await expectPath(page, '/repository-picker', 30_000);
  });

  afterAll(async () => {
    if (deployed) await call('DELETE', `/api/workspace-delete/${REPO}`).catch(() => undefined);
    await browser?.close();
    await server?.stop();
    repos?.cleanup();
  });

  it('shows the empty dashboard and monitoring screens', async () => {
    await page.goto(at('/dashboard'));
    await expectTexts(page, ['No Workspace Selected', 'No workspaces have been created yet.']);
    await screenshot(page, 'dashboard-01-empty');
    await page.goto(at('/monitoring'));
    await expectText(page, 'No workspaces');
    await screenshot(page, 'monitoring-01-empty');
  });

  it('deploys a real workspace through the deployment engine', async () => {
    const sessionId = crypto.randomUUID();
    const started = await call('POST', '/api/workflow/deployment/start', {
      sessionId,
      owner: OWNER,
      repo: REPO,
      branch: 'main',
      vmSize: 'Standard_B2ats_v2',
    });
    expect(started.status(), await started.text()).toBeLessThan(300);
    type Status = {
      state?: string;
      workflowComplete?: boolean;
      error?: string | null;
      steps?: { status: string }[];
    };
    const begun = Date.now();
    let status: Status = {};
    // Polls the status call until the deployment has ended (a condition, read once a second).
    await expect
      .poll(
        async () => {
          status = await (await call('GET', `/api/workflow/deployment/status/${sessionId}`)).json();
          // A server that queues deployments but runs no worker leaves every step pending.
          if (Date.now() - begun > 60_000 && status.steps?.every((step) => step.status === 'pending')) {
            throw new Error('The deployment engine did not pick up the job');
          }
          return status.state === 'failed' || (status.state === 'completed' && status.workflowComplete);
        },
        { timeout: 240_000, interval: 1000 },
      )
      .toBe(true);
    expect(status.error ?? null, server.output().slice(-2000)).toBeNull();
    expect(status.state).toBe('completed');
    deployed = true;
  }, 300_000);

  it('shows the panels of a workspace and the redeploy dialog', async () => {
    await page.goto(at(`/dashboard?workspace=${REPO}`));
    await expectTexts(page, [
      'Workspace Status',
      'VM Configuration',
      'Actions',
      'Latest Error',
      'Workspace Logs',
    ]);
    await expectTexts(page, [
      'Delete Workspace',
      'Refresh',
      'Settings',
      'Monitoring',
      'Follow',
      'Auto-scroll',
    ]);
    expect(await page.getByLabel('Service filter').locator('option').first().textContent()).toBe(
      'All Services',
    );
    await expectText(page, 'CPU and memory — last hour');
    // The service's live state (issue 14): one service, running (it declares no healthcheck).
    await expectText(page, 'Service States');
    const states = page.getByTestId('service-states');
    await states.getByText('Running', { exact: true }).waitFor();
    expect(await states.locator('li').count()).toBe(1);
    expect(await states.locator('li').first().textContent()).toContain('app');
    await page.getByRole('button', { name: 'Deploy Again' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Configure Redeploy').waitFor();
    expect(await dialog.getByLabel('Branch').inputValue()).toBe('main');
    expect(await dialog.getByRole('button', { name: 'Deploy Again' }).count()).toBe(1);
    await screenshot(page, 'dashboard-03-redeploy-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('link', { name: 'Settings' }).click();
    await expectPath(page, '/workspace-settings');
    expect(new URL(page.url()).searchParams.get('workspace')).toBe(REPO);
  });

  it('shows the workspace on the dashboard with history and live logs, markup as text', async () => {
    expect(deployed, 'the workspace was deployed by the setup test').toBe(true);
    await page.goto(at('/dashboard'));
    await expectTexts(page, [
      'Workspace Status',
      'VM Configuration',
      'Actions',
      'Latest Error',
      'Workspace Logs',
    ]);
    await expectTexts(page, ['Visit', 'Delete Workspace', 'Deploy Again', 'Settings', 'Refresh']);
    expect(await page.getByRole('button', { name: 'Workspace', exact: true }).textContent()).toBe(REPO);
    // The stored history and the live stream both reach the viewer.
    await expectText(page, XSS_LINE, { timeout: 30_000 });
    await expectText(page, 'Streaming');
    await expectText(page, 'tick 3', { timeout: 30_000 });
    const errorLine = page.getByTestId('log-line').filter({ hasText: 'ERROR: sample failure' }).first();
    expect(await errorLine.getAttribute('data-level')).toBe('error');
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('[data-testid="log-scroll"] script').count()).toBe(0);
    await screenshot(page, 'dashboard-02-workspace');

    // Stop the stream: the filter and Follow come back; Clear empties the view.
    await page.getByRole('button', { name: 'Stop Stream' }).click();
    await page.getByRole('button', { name: 'Start Stream' }).waitFor();
    expect(await page.getByLabel('Service filter').isDisabled()).toBe(false);
    await page.getByRole('button', { name: 'Clear' }).click();
    await expectText(page, 'No logs available');
  });

  it('shows the monitoring screen with system health, alerts and logs', async () => {
    await page.goto(at(`/monitoring?workspace=${REPO}`));
    await expectTexts(page, [
      'Workspace Monitoring',
      'System Health',
      'Alerts',
      'Workspace Logs',
      'Workspace details',
    ]);
    await expectText(page, 'No Active Alerts');
    await page.getByRole('tab', { name: 'Recent' }).click();
    await expectText(page, 'No Recent Alerts');
    await page.getByRole('tab', { name: 'Statistics' }).click();
    await expectText(page, 'No Statistics Available');
    await page.getByRole('button', { name: 'Workspace', exact: true }).click();
    await page.getByRole('option', { name: REPO }).waitFor();
    await screenshot(page, 'monitoring-02-workspace');
    await page.keyboard.press('Escape');
    // A fresh workspace has no system-health container: the button must be there, and deploying it must work.
    await page.getByRole('button', { name: 'Deploy System Health' }).click();
    await page.getByText('Active', { exact: true }).waitFor({ timeout: 120_000 });
    expect(await page.getByText('Failed to deploy system health monitoring').count()).toBe(0);
    await screenshot(page, 'monitoring-03-system-health');
  }, 180_000);

  it('validates and saves notification channels; secrets stay masked', async () => {
    const secret = 'super-secret-token-123';
    const seeded = await call('PUT', `/api/alerts/config/${REPO}`, {
      sinks: [{ sink_type: 'telegram', enabled: true, config: { chat_id: '424242', api_token: secret } }],
      rules: [],
      global_enabled: true,
    });
    expect(seeded.status(), await seeded.text()).toBe(200);

    await page.goto(at(`/workspace-settings?workspace=${REPO}`));
    await expectTexts(page, [
      'Workspace Settings',
      'Notifications',
      'Environment Variables',
      'Save Changes',
      'Telegram',
    ]);
    expect(await page.locator('#sink-field-chat_id').inputValue()).toBe('424242');
    expect(await page.locator('#sink-field-api_token').getAttribute('type')).toBe('password');
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Add Channel' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Add Channel' }).click();
    await expectText(page, 'Configuration incomplete');
    await expectText(page, '(Test email sent automatically)');
    await page.locator('#sink-field-chat_id').fill('');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectTexts(page, [
      'Please fix the validation errors before saving.',
      'Email address is required',
      'At least one chat ID is required',
    ]);
    await page.locator('#sink-field-to_email').fill('not-an-email');
    await expectText(page, 'Please enter a valid email address');
    await screenshot(page, 'settings-01-validation');

    await page.locator('#sink-field-to_email').fill('alerts@example.test');
    await page.locator('#sink-field-chat_id').fill('424242');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectText(page, 'Settings saved.');
    await page.reload();
    await expectText(page, 'Email');
    expect(await page.locator('#sink-field-to_email').inputValue()).toBe('alerts@example.test');
    expect(await page.locator('#sink-field-chat_id').inputValue()).toBe('424242');
    expect(await page.content()).not.toContain(secret);
    await screenshot(page, 'settings-02-notifications-saved');
  });

  it('adds, edits and deletes environment variables', async () => {
    await page.goto(at(`/workspace-settings?workspace=${REPO}`));
    await page.getByRole('tab', { name: 'Environment Variables' }).click();
    await expectText(page, 'No Environment Variables');
    await screenshot(page, 'settings-03-env-empty');
    await page.getByRole('button', { name: 'Add Environment Variables' }).click();
    await page.getByLabel('Key 1').fill('API_URL');
    await page.getByLabel('Value 1').fill('https://api.example.test');
    await page.getByRole('button', { name: 'Add Variable' }).click();
    await page.getByLabel('Key 2').fill('FEATURE_FLAG');
    await page.getByLabel('Value 2').fill('on');
    await page.getByRole('button', { name: 'Save Variables' }).click();
    await expectText(page, '2 variables');

    await page.getByRole('button', { name: 'Edit API_URL' }).click();
    await page.getByLabel('Value of API_URL').fill('https://changed.example.test');
    // The edit is saved by a PUT; reloading before it answers would cancel it.
    await Promise.all([
      page.waitForResponse(
        (response) => response.request().method() === 'PUT' && response.url().includes('/api/env-variables/'),
      ),
      page.getByLabel('Value of API_URL').press('Enter'),
    ]);
    await page.reload();
    await page.getByRole('tab', { name: 'Environment Variables' }).click();
    await page.getByRole('button', { name: 'Show API_URL' }).click();
    await expectText(page, 'https://changed.example.test');
    await screenshot(page, 'settings-04-env-table');

    await page.getByRole('button', { name: 'Delete FEATURE_FLAG' }).click();
    await expectText(page, '1 variable');
    await page.getByRole('button', { name: 'Delete All' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete All' }).click();
    await expectText(page, 'No Environment Variables');
  });

  it('deletes the workspace from the dashboard', async () => {
    expect(deployed, 'the workspace was deployed by the setup test').toBe(true);
    await page.goto(at(`/dashboard?workspace=${REPO}`));
    await page.getByRole('button', { name: 'Delete Workspace' }).first().click();
    await expectText(page, `Are you sure you want to delete workspace ${REPO}?`);
    await screenshot(page, 'dashboard-04-delete-confirm');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Workspace' }).click();
    await expectText(page, 'No workspaces have been created yet.', { timeout: 120_000 });
    deployed = false;
  }, 180_000);
});
