import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './harness/a11y.js';
import { apiCall } from './harness/api.js';
import { chromiumAvailable, launchBrowser, type RunningBrowser, screenshot } from './harness/browser.js';
import { siteUrl, startDeploymentFromPicker } from './harness/deployJourney.js';
import { dockerReady } from './harness/dockerReady.js';
import { makeRepo } from './harness/gitRepos.js';
import { expectText, expectTexts } from './harness/page.js';
import { type RunningServer, startServer } from './harness/server.js';
import { screenshotBothSizes } from './harness/viewports.js';
import { assertWebBuilt } from './harness/webBuild.js';
import { execIn } from './harness/workspaceContainers.js';

const WORKSPACE = 'ledger';
const ROWS = 100_000;
const UPLOAD = 'report.txt';
const UPLOAD_TEXT = 'Quarterly report: every figure checked.';
const PSQL = '/usr/local/bin/psql -h db -U postgres -v ON_ERROR_STOP=1';
/**
 * The image's own start, but letting the app's other containers in: `initdb --auth=trust` trusts only local and
 * loopback connections. `$$` is a dollar sign to Compose.
 */
const DB_COMMAND =
  '[ -s "$$PGDATA/PG_VERSION" ] || { initdb -D "$$PGDATA" --auth=trust -U postgres >/dev/null && echo "host all all all trust" >> "$$PGDATA/pg_hba.conf"; }; exec postgres -D "$$PGDATA" -c listen_addresses="*"';

/**
 * A PostgreSQL app: `db` (local/postgres:15, data in the named volume `pgdata`), `seed` (a one-shot that creates
 * `items` with 100,000 rows) and `web` (busybox httpd on the PostgreSQL client's libraries: /cgi-bin/rows
 * answers the row count from db; /uploads/ serves the named volume `uploads`). web is not built FROM the
 * PostgreSQL image: its PGDATA variable would make it look like a database.
 */
const LEDGER = {
  Dockerfile: [
    'FROM local/debian:bookworm',
    'COPY --from=local/postgres:15 /usr/lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu',
    'COPY --from=local/postgres:15 /usr/lib/postgresql/15/bin/psql /usr/local/bin/psql',
    'COPY --from=busybox:1.36 /bin/busybox /bin/busybox',
    'COPY www /www',
    'COPY seed.sh /seed.sh',
    'RUN mkdir -p /www/uploads && chmod +x /www/cgi-bin/rows /seed.sh',
    'EXPOSE 8080',
    'CMD ["/bin/busybox", "httpd", "-f", "-p", "8080", "-h", "/www"]',
    '',
  ].join('\n'),
  'www/index.html': '<h1>ledger</h1>\n',
  'www/cgi-bin/rows': [
    '#!/bin/sh',
    // busybox httpd passes the script's headers on as they are: HTTP wants CRLF line ends.
    "printf 'Content-Type: text/plain\\r\\n\\r\\n'",
    `${PSQL} -tA -c "SELECT count(*) FROM items" 2>&1`,
    '',
  ].join('\n'),
  'seed.sh': [
    '#!/bin/sh',
    'set -e',
    // db is started but may not accept connections yet: up to a minute, then its last answer and a failure.
    `for i in $(seq 60); do ${PSQL} -c 'SELECT 1' >/dev/null 2>/tmp/error && break; sleep 1; done`,
    `${PSQL} -c 'SELECT 1' >/dev/null || { cat /tmp/error; exit 1; }`,
    `${PSQL} -c "CREATE TABLE IF NOT EXISTS items (id integer PRIMARY KEY, name text NOT NULL)" \\`,
    `  -c "INSERT INTO items SELECT g, 'item ' || g FROM generate_series(1, ${ROWS}) AS g ON CONFLICT DO NOTHING"`,
    '',
  ].join('\n'),
  'docker-compose.yml': [
    'services:',
    '  db:',
    '    image: local/postgres:15',
    `    command: ["sh", "-c", ${JSON.stringify(DB_COMMAND)}]`,
    '    volumes:',
    '      - pgdata:/var/lib/postgresql/data',
    '  seed:',
    '    build: .',
    '    command: ["/seed.sh"]',
    '    restart: "no"',
    '    depends_on: [db]',
    '  web:',
    '    build: .',
    '    ports:',
    '      - "8080"',
    '    volumes:',
    '      - uploads:/www/uploads',
    '    depends_on: [db]',
    'volumes:',
    '  pgdata:',
    '  uploads:',
    '',
  ].join('\n'),
};

const dockerIsReady =
  dockerReady() && imagePresent('local/postgres:15') && imagePresent('local/debian:bookworm');
if (!dockerIsReady && process.env.CI === 'true') {
  throw new Error(
    'CI=true but Docker, busybox:1.36 or local/postgres:15 (scripts/database-images.sh) is missing',
  );
}

function imagePresent(image: string): boolean {
  try {
    execFileSync('docker', ['image', 'inspect', image], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Issue 30 in the browser: a PostgreSQL app with 100,000 rows and an uploads volume; Back Up Now → Verified; a
 * row deleted and a file removed behind Slipway's back; Restore → confirmation naming what is overwritten →
 * progress → Restored; the row and the file are back, the app is Live, and the dashboard shows the restore.
 */
describe.skipIf(!chromiumAvailable() || !dockerIsReady)('backups', () => {
  let root: string;
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  let site: URL;
  const at = (p: string) => `${server.url}${p}`;
  const inService = (service: string, command: string[]) =>
    execIn(browser, server.url, WORKSPACE, service, command);
  const sql = (query: string) =>
    inService('db', ['psql', '-U', 'postgres', '-tA', '-v', 'ON_ERROR_STOP=1', '-c', query]);
  const served = async (p: string) => {
    const response = await fetch(new URL(p, site));
    return { status: response.status, text: (await response.text()).trim() };
  };
  const backupRows = () => page.locator('tr[data-testid="backup"]');
  const verifiedRow = () => page.locator('tr[data-testid="backup"][data-status="verified"]').first();
  const progress = () => page.getByTestId('restore-progress');

  beforeAll(async () => {
    assertWebBuilt();
    root = mkdtempSync(path.join(tmpdir(), 'slipway-backups-'));
    makeRepo(path.join(root, '.slipway', 'repos'), 'operator', WORKSPACE, LEDGER);
    server = await startServer({ DATA_DIR: path.join(root, '.slipway') });
    browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
    page = browser.page;
    await page.goto(at('/'));
    await page.getByRole('banner').getByRole('button', { name: 'Sign in with GitHub' }).click();
  });

  afterAll(async () => {
    if (browser && server) {
      await apiCall(browser, server.url, 'DELETE', `/api/workspace-delete/${WORKSPACE}`).catch(
        () => undefined,
      );
    }
    await browser?.close();
    await server?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('deploys a PostgreSQL app with 100,000 rows and a file in its uploads volume', async () => {
    await startDeploymentFromPicker(page, WORKSPACE);
    await expectText(page, 'Deployment Successful!', { timeout: 240_000 });
    site = await siteUrl(page);
    expect(await served('/cgi-bin/rows')).toEqual({ status: 200, text: String(ROWS) });
    await inService('web', ['sh', '-c', `printf '%s\\n' '${UPLOAD_TEXT}' > /www/uploads/${UPLOAD}`]);
    expect(await served(`/uploads/${UPLOAD}`)).toEqual({ status: 200, text: UPLOAD_TEXT });
  }, 270_000);

  it('opens Workspace Settings → Backups: the repository, the schedule with its defaults, no backups yet', async () => {
    await page.goto(at(`/workspace-settings?workspace=${WORKSPACE}`));
    await expectText(page, 'Workspace Settings');
    await page.getByRole('tab', { name: 'Backups' }).click();
    await expectTexts(page, ['Schedule', 'Back up on a schedule', 'Backups', 'No backups yet']);
    expect(await page.getByTestId('backup-repository').textContent()).toMatch(/^local directory/);
    expect(await page.getByLabel('Daily backups to keep').inputValue()).toBe('7');
    expect(await page.getByLabel('Weekly backups to keep').inputValue()).toBe('4');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshotBothSizes(page, 'backups-01-empty');
  });

  it('refuses a cron expression without five fields before asking the server, then saves a daily time', async () => {
    const toggle = page.getByRole('switch', { name: 'Back up on a schedule' });
    if (!(await toggle.isChecked())) await toggle.check();
    await page.getByRole('radio', { name: 'Cron expression' }).check();
    await page.getByRole('textbox', { name: 'Cron expression' }).fill('0 3 * *');
    await page.getByRole('button', { name: 'Save Backup Settings' }).click();
    await expectText(
      page,
      'Enter a cron expression of five fields (minute hour day month weekday), e.g. 0 3 * * *',
    );
    await screenshot(page, 'backups-02-cron-refused');
    await page.getByRole('radio', { name: 'Daily at a time' }).check();
    await page.getByLabel('Time of day').fill('04:30');
    await page.getByRole('button', { name: 'Save Backup Settings' }).click();
    await expectText(page, 'Backup settings saved.');
    await expectText(page, /^Every day at 04:30 UTC/);
  });

  it('backs up now: Backing up → Verifying → Verified, each service with its method and what was checked', async () => {
    await page.getByRole('button', { name: 'Back Up Now' }).click();
    await backupRows().first().waitFor();
    await screenshot(page, 'backups-03-backing-up');
    await verifiedRow().waitFor({ timeout: 240_000 });
    const row = verifiedRow();
    const db = row.locator('[data-testid="backup-part"][data-service="db"]').filter({ visible: true });
    const web = row.locator('[data-testid="backup-part"][data-service="web"]').filter({ visible: true });
    await db.getByText('db (pgdata)', { exact: true }).waitFor();
    await db.getByText(/^PostgreSQL dump \(pg_dumpall\)/).waitFor();
    await db.getByText(/^Checked: /).waitFor();
    await web.getByText('web (uploads)', { exact: true }).waitFor();
    await web.getByText(/^Volume files/).waitFor();
    await web.getByText(/^Checked: /).waitFor();
    expect(await row.getByText('Back Up Now', { exact: true }).count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshotBothSizes(page, 'backups-04-verified');
  }, 270_000);

  it('loses a row and a file behind Slipway’s back', async () => {
    await sql('DELETE FROM items WHERE id = 42');
    await inService('web', ['rm', `/www/uploads/${UPLOAD}`]);
    expect(await sql('SELECT count(*) FROM items')).toBe(String(ROWS - 1));
    expect((await served(`/uploads/${UPLOAD}`)).status).toBe(404);
  });

  it('asks before restoring, naming exactly what is overwritten for each choice', async () => {
    await verifiedRow()
      .getByRole('button', { name: /^Restore the backup from / })
      .filter({ visible: true })
      .click();
    const dialog = page.getByRole('dialog');
    const question = dialog.getByTestId('restore-question');
    await expect
      .poll(() => question.textContent())
      .toMatch(/^This overwrites the data of db \(pgdata\) and web \(uploads\) with the backup from .+\./);
    expect(await question.textContent()).toContain(
      'A safety backup of the data as it is now is taken first, and put back if the restore fails.',
    );
    await dialog.getByRole('radio', { name: 'Only web (uploads)' }).check();
    await expect
      .poll(() => question.textContent())
      .toMatch(/^This overwrites the data of web \(uploads\) with the backup from /);
    await dialog.getByRole('radio', { name: 'All services: db and web' }).check();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'backups-05-confirm');
  });

  it('restores: a safety backup, the steps followed live, then Restored', async () => {
    await page.getByRole('dialog').getByRole('button', { name: 'Restore', exact: true }).click();
    await progress().waitFor();
    await screenshot(page, 'backups-06-restoring');
    await progress().and(page.locator('[data-status="done"]')).waitFor({ timeout: 300_000 });
    await progress()
      .getByText(/^Restored backup from /)
      .waitFor();
    // The safety backup taken first is in the list, verified like any other.
    await page
      .locator('tr[data-testid="backup"]')
      .filter({ hasText: 'Safety backup before a restore' })
      .and(page.locator('[data-status="verified"]'))
      .first()
      .waitFor({ timeout: 60_000 });
    await screenshotBothSizes(page, 'backups-07-restored');
  }, 330_000);

  it('has the row and the file back, and the app serves them', async () => {
    expect(await sql('SELECT count(*) FROM items')).toBe(String(ROWS));
    expect(await sql('SELECT name FROM items WHERE id = 42')).toBe('item 42');
    await expect
      .poll(() => served('/cgi-bin/rows'), { timeout: 60_000 })
      .toEqual({
        status: 200,
        text: String(ROWS),
      });
    expect(await served(`/uploads/${UPLOAD}`)).toEqual({ status: 200, text: UPLOAD_TEXT });
  }, 90_000);

  it('shows on the dashboard: the app Live, the latest backup Verified and the restore', async () => {
    await page.goto(at(`/dashboard?workspace=${WORKSPACE}`));
    const status = page.getByRole('heading', { name: 'Workspace Status' }).locator('xpath=../..');
    await status.getByText('live', { exact: true }).waitFor();
    const backups = page.getByTestId('dashboard-backups');
    await backups
      .getByTestId('dashboard-latest-backup')
      .and(page.locator('[data-status="verified"]'))
      .waitFor();
    await backups.getByText(/^Verified at /).waitFor();
    await backups
      .getByTestId('dashboard-latest-restore')
      .getByText(/^Restored backup from /)
      .waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshotBothSizes(page, 'backups-08-dashboard');
  });
});
