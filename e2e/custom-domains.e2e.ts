import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AcmeWorld,
  acmeToolsInstalled,
  startAcmeWorld,
} from '../apps/server/src/test/fixtures/acmeWorld.js';
import { fetchThroughCaddy } from '../apps/server/src/test/fixtures/caddyProcess.js';
import { seriousA11yViolations } from './harness/a11y.js';
import { addRecords, type ShownRecord, servedCertificate } from './harness/acmeIngress.js';
import { apiCall } from './harness/api.js';
import { chromiumAvailable, launchBrowser, type RunningBrowser, screenshot } from './harness/browser.js';
import { startDeploymentFromPicker } from './harness/deployJourney.js';
import { dockerReady } from './harness/dockerReady.js';
import { makeRepo } from './harness/gitRepos.js';
import { expectPath, expectText, expectTexts, holdResponses } from './harness/page.js';
import { type RunningServer, startServer } from './harness/server.js';
import { screenshotBothSizes } from './harness/viewports.js';
import { assertWebBuilt } from './harness/webBuild.js';

const WORKSPACE = 'shopfront';
const DOMAIN = 'shop.example.test';
const PAGE_TEXT = 'shopfront is up';
const DNS_INSTRUCTIONS =
  'Add these records at your DNS provider, then press Verify. Slipway also checks by itself, every few minutes at first, then hourly.';

/** A one-service compose app: `web` answers PAGE_TEXT on its published port. */
const SHOPFRONT = {
  Dockerfile: [
    'FROM busybox:1.36',
    `RUN mkdir -p /www && echo "${PAGE_TEXT}" > /www/index.html`,
    'EXPOSE 8080',
    'CMD ["httpd", "-f", "-p", "8080", "-h", "/www"]',
    '',
  ].join('\n'),
  'docker-compose.yml': 'services:\n  web:\n    build: .\n    ports:\n      - "8080"\n',
};

const dockerIsReady = dockerReady();
const toolsReady = acmeToolsInstalled();
if ((!dockerIsReady || !toolsReady) && process.env.CI === 'true') {
  throw new Error(
    'CI=true but Docker (busybox:1.36, docker-compose) or caddy/pebble/pebble-challtestsrv is missing',
  );
}

/** The records the Domains tab lists for `domain`, read from its DNS records table. */
async function shownRecords(page: Page, domain: string): Promise<ShownRecord[]> {
  const rows = page.getByRole('table', { name: `DNS records for ${domain}` }).locator('tbody tr');
  return rows.evaluateAll((trs) =>
    trs.map((tr) => {
      const [type, name, value] = [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '');
      return { type: type ?? '', name: name ?? '', value: value ?? '' };
    }),
  );
}

/**
 * Issue 29 in the browser: a deployed service gets its owner's own domain. Add it, see what to put in DNS,
 * put it in the (test) DNS, Verify, and see it go Active by itself; the page is then served at the domain
 * with a certificate pebble issued. Removed, the name is no longer served.
 */
describe.skipIf(!chromiumAvailable() || !dockerIsReady || !toolsReady)('custom domains', () => {
  let root: string;
  let ingress: AcmeWorld;
  let server: RunningServer;
  let browser: RunningBrowser;
  let page: Page;
  const at = (p: string) => `${server.url}${p}`;
  const domainRow = () => page.locator(`tr[data-domain="${DOMAIN}"]`);
  const instructions = () => page.getByRole('region', { name: `DNS records for ${DOMAIN}` });
  const servedAtDomain = async () =>
    fetchThroughCaddy(`https://${DOMAIN}:${ingress.caddy.httpsPort}/`, await ingress.pebble.issuingRoot());

  beforeAll(async () => {
    assertWebBuilt();
    root = mkdtempSync(path.join(tmpdir(), 'slipway-domains-'));
    makeRepo(path.join(root, '.slipway', 'repos'), 'operator', WORKSPACE, SHOPFRONT);
    ingress = await startAcmeWorld();
    server = await startServer({ DATA_DIR: path.join(root, '.slipway'), ...ingress.serverEnv });
    browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    page = browser.page;
    await page.goto(at('/api/auth/github/install'));
    await expectPath(page, '/repository-picker');
  });

  afterAll(async () => {
    if (browser && server) {
      await apiCall(browser, server.url, 'DELETE', `/api/workspace-delete/${WORKSPACE}`).catch(
        () => undefined,
      );
    }
    await browser?.close();
    await server?.stop();
    await ingress?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('deploys a small site', async () => {
    await startDeploymentFromPicker(page, WORKSPACE);
    await expectText(page, 'Deployment Successful!', { timeout: 170_000 });
  }, 200_000);

  it('opens Workspace Settings → Domains, with nothing in it yet', async () => {
    await page.goto(at(`/workspace-settings?workspace=${WORKSPACE}`));
    await page.getByRole('tab', { name: 'Domains' }).click();
    await expectTexts(page, ['Add a domain', 'Also redirect www', 'Your domains', 'No custom domains']);
    await expectText(
      page,
      'For shop.example.com, www.shop.example.com redirects to it; for www.example.com, example.com does.',
    );
    expect(await page.getByLabel('Domain', { exact: true }).getAttribute('placeholder')).toBe(
      'shop.example.com',
    );
    expect(await page.getByLabel('Service').inputValue()).toBe('web');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'custom-domains-01-empty');
  });

  it('refuses what is not a domain name, in the server’s words, before asking it', async () => {
    await page.getByLabel('Domain', { exact: true }).fill(`https://${DOMAIN}/`);
    await page.getByRole('button', { name: 'Add Domain' }).click();
    await expectText(
      page,
      `"https://${DOMAIN}/" is not a domain name: enter one like shop.example.com, without https:// or a path`,
    );
    await screenshot(page, 'custom-domains-02-not-a-domain');
  });

  it('adds shop.example.test for the web service and shows what to put in DNS', async () => {
    await page.getByLabel('Domain', { exact: true }).fill(DOMAIN);
    await page.getByLabel('Service').selectOption('web');
    await page.getByRole('checkbox', { name: 'Also redirect www' }).check();
    await expectText(page, `Visitors to www.${DOMAIN} are redirected to ${DOMAIN}.`);
    await page.getByRole('checkbox', { name: 'Also redirect www' }).uncheck();
    await page.getByRole('button', { name: 'Add Domain' }).click();

    await domainRow().waitFor();
    const cells = await domainRow().getByRole('cell').allTextContents();
    expect(cells[0]).toBe(DOMAIN);
    expect(cells[1]).toBe('web');
    await domainRow().getByText('Pending DNS', { exact: true }).waitFor();
    await instructions().getByText(DNS_INSTRUCTIONS, { exact: true }).waitFor();
    const records = await shownRecords(page, DOMAIN);
    const txt = records.find((record) => record.type === 'TXT');
    expect(txt?.name).toBe(`_slipway-challenge.${DOMAIN}`);
    expect(txt?.value).toMatch(/\S{16,}/);
    expect(records.some((record) => ['A', 'AAAA', 'CNAME'].includes(record.type))).toBe(true);

    await instructions()
      .getByRole('button', { name: `Copy the TXT value for _slipway-challenge.${DOMAIN}` })
      .click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(txt?.value);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshotBothSizes(page, 'custom-domains-03-dns-instructions');
  });

  it('verifies once the records are in DNS, then goes Active by itself', async () => {
    const records = await shownRecords(page, DOMAIN);
    // What a user adds at their DNS provider: the TXT token as the page shows it, and the target: the CNAME
    // when the page asks for one, else an A record to the ingress address (INGRESS_ADDRESSES, loopback here).
    const cname = records.filter((record) => record.type === 'CNAME');
    const address = cname.length > 0 ? cname : [{ type: 'A', name: DOMAIN, value: '127.0.0.1' }];
    await addRecords(ingress.dns, [...records.filter((record) => record.type === 'TXT'), ...address]);

    const held = await holdResponses(page, `**/api/workspace-domains/${WORKSPACE}/${DOMAIN}/verify`);
    await instructions().getByRole('button', { name: 'Verify' }).click();
    await instructions().getByRole('button', { name: 'Checking…' }).waitFor();
    await screenshot(page, 'custom-domains-04-checking');
    await held.release();

    // Verified, then Issuing certificate, then Active: the list polls while the domain is on its way.
    await domainRow().getByText('Active', { exact: true }).waitFor({ timeout: 120_000 });
    expect(await instructions().count()).toBe(0);
    const link = domainRow().getByRole('link', {
      name: new RegExp(`^https://${DOMAIN.replaceAll('.', '\\.')}`),
    });
    expect(await link.getAttribute('href')).toMatch(
      new RegExp(`^https://${DOMAIN.replaceAll('.', '\\.')}(:\\d+)?/?$`),
    );
    await domainRow()
      .getByText(/^Certificate from .*Pebble/i)
      .waitFor();
    await screenshotBothSizes(page, 'custom-domains-05-active');
  }, 150_000);

  it('serves the service’s page at the domain through Caddy, with a certificate pebble issued', async () => {
    const pebbleRoot = await ingress.pebble.issuingRoot();
    const certificate = await servedCertificate(DOMAIN, ingress.caddy.httpsPort, pebbleRoot);
    expect(certificate.subjectaltname).toContain(`DNS:${DOMAIN}`);
    expect(certificate.issuer.CN).toMatch(/pebble/i);
    const answer = await servedAtDomain();
    expect(answer.status).toBe(200);
    expect(answer.body).toContain(PAGE_TEXT);
  });

  it('removes it after a confirmation: the name is no longer served', async () => {
    await domainRow()
      .getByRole('button', { name: `Remove ${DOMAIN}` })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`Remove ${DOMAIN}? It stops being served at once.`, { exact: true }).waitFor();
    await screenshot(page, 'custom-domains-06-remove-confirm');
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await expectText(page, 'No custom domains');
    await screenshot(page, 'custom-domains-07-removed');

    // Either Caddy refuses the handshake (no certificate may be had for it any more) or no route answers.
    const after = await servedAtDomain().catch((error: Error) => ({ status: 0, body: error.message }));
    expect(after.body).not.toContain(PAGE_TEXT);
  });
});
