import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestDns, type TestDns } from '../test/fixtures/testDns.js';
import { createRecordingIngress, type RecordingIngress } from '../test/recordingIngress.js';
import { insertWorkspace } from '../test/runningWorkspaces.js';
import { createTestContext, signInNewUser, type TestContext } from '../test/testPlatform.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import { type CustomDomainsModule, createCustomDomainsModule } from './customDomainsModule.js';
import { createCustomDomainStore } from './servableNames.js';

const MINUTE = 60_000;
const HOST = 'web-shop.slipway.example';

/**
 * The background task, driven by hand with a clock of its own: which claims are due, how pending ones back
 * off, and how a verified one becomes Misconfigured when its DNS moves away, and Active again when it is back.
 */
describe('background checks of custom domains', () => {
  let dns: TestDns;
  let ctx: TestContext;
  let recording: RecordingIngress;
  let domains: CustomDomainsModule;
  let clock: Date;
  let user: { id: string };
  let workspace: WorkspaceRow;
  let n = 0;
  let domain: string;

  const advance = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };
  const claimOf = async () =>
    (await domains.service.list(user, workspace.name)).find((claim) => claim.domain === domain)!;
  const gap = async () => Date.parse((await claimOf()).next_check_at!) - clock.getTime();
  const allowed = async () =>
    domains.service.tlsPermission(domain).then(
      () => true,
      () => false,
    );

  beforeAll(async () => {
    dns = await startTestDns();
    recording = createRecordingIngress();
    ctx = await createTestContext({
      env: { DNS_SERVERS: dns.server, PUBLIC_DOMAIN: 'slipway.example' },
      ingress: recording.ingress,
    });
    user = { id: (await signInNewUser(ctx)).userId };
    workspace = await insertWorkspace(ctx.platform, {
      userId: user.id,
      serviceUrls: { web: `https://${HOST}` },
    });
    clock = new Date('2026-12-01T09:00:00.000Z');
    domains = createCustomDomainsModule({
      config: ctx.platform.config,
      store: createCustomDomainStore({
        db: ctx.platform.db,
        pubsub: ctx.platform.pubsub,
        logger: pino({ level: 'silent' }),
      }),
      ingress: recording.ingress,
      workspaces: ctx.platform.runningApps.workspacesRepo,
      kv: ctx.platform.kv,
      logger: pino({ level: 'silent' }),
      now: () => clock,
    });
  });
  afterAll(async () => {
    await domains?.stop();
    await ctx?.close();
    await dns?.stop();
  });
  beforeEach(async () => {
    domain = `shop.bg${++n}.example`;
    recording.state.issuing = true;
    await domains.service.add(user, workspace.name, { domain, service: 'web' });
  });
  /** One run of the task (other tests' claims may be due beside this one); this claim as it is after it. */
  async function runOnce() {
    await domains.runDueChecks();
    return claimOf();
  }
  async function pointAndProve() {
    const claim = await claimOf();
    await dns.setTxt(claim.records[0]!.name, claim.records[0]!.value);
    await dns.setCname(domain, HOST);
  }

  it('backs a pending claim off 1, 2, 5, 10, 30 minutes, then hourly; checks nothing before it is due', async () => {
    expect(await gap()).toBe(MINUTE);
    advance(MINUTE - 1000);
    await domains.runDueChecks();
    expect((await claimOf()).checked_at).toBeNull();
    const gaps: number[] = [];
    for (let i = 0; i < 7; i++) {
      advance(await gap());
      const checked = await runOnce();
      expect(checked.status).toBe('pending_dns');
      expect(checked.cause).toContain(`No DNS record for ${domain} yet`);
      gaps.push((await gap()) / MINUTE);
    }
    expect(gaps).toEqual([2, 5, 10, 30, 60, 60, 60]);

    // Verify starts the backoff afresh: the user has just changed something.
    await domains.service.verify(user, workspace.name, domain);
    expect(await gap()).toBe(MINUTE);
  });

  it('verifies in the background once the records are there, and re-checks daily', async () => {
    await pointAndProve();
    advance(MINUTE);
    const active = await runOnce();
    expect(active).toMatchObject({ status: 'active', cause: null, certificate: { issuer: 'Test CA' } });
    expect(await gap()).toBe(24 * 60 * MINUTE);
    expect(recording.customHosts.get(workspace.id)?.map((host) => host.host)).toContain(domain);
  });

  it('keeps asking for the certificate while none is served, soon and then less often', async () => {
    recording.state.issuing = false;
    await pointAndProve();
    advance(MINUTE);
    expect((await runOnce()).status).toBe('issuing');
    const gaps: number[] = [(await gap()) / 1000];
    for (let i = 0; i < 3; i++) {
      advance(await gap());
      await domains.runDueChecks();
      gaps.push((await gap()) / 1000);
    }
    expect(gaps).toEqual([30, 60, 120, 300]);
    recording.state.issuing = true;
    advance(await gap());
    await domains.runDueChecks();
    expect((await claimOf()).status).toBe('active');
  });

  it('marks a verified domain Misconfigured when its DNS moves away, and Active again when it is back', async () => {
    await pointAndProve();
    advance(MINUTE);
    expect((await runOnce()).status).toBe('active');
    expect(await allowed()).toBe(true);

    await dns.clearCname(domain);
    await dns.addA(domain, ['198.51.100.23']);
    advance(24 * 60 * MINUTE);
    const misconfigured = await runOnce();
    expect(misconfigured).toMatchObject({
      status: 'misconfigured',
      cause: `${domain} points to 198.51.100.23, not to ${HOST}: change its record to a CNAME record pointing to ${HOST}.`,
    });
    expect(misconfigured.verified_at).not.toBeNull();
    // Still listed and on its route, but no certificate is ordered for it.
    expect(await allowed()).toBe(false);
    expect(recording.customHosts.get(workspace.id)?.map((host) => host.host)).toContain(domain);
    expect(await gap()).toBe(MINUTE);
    advance(MINUTE);
    await runOnce();
    expect(await gap()).toBe(2 * MINUTE);

    // The TXT record may have been cleaned up meanwhile: a verified claim is not asked for it again.
    await dns.clearTxt(`_slipway-challenge.${domain}`);
    await dns.clearA(domain);
    await dns.setCname(domain, HOST);
    advance(2 * MINUTE);
    expect(await runOnce()).toMatchObject({ status: 'active', cause: null });
    expect(await allowed()).toBe(true);
  });

  it('lapses a verified claim at its daily check once its name is an alias of another service, off its route', async () => {
    await pointAndProve();
    advance(MINUTE);
    expect((await runOnce()).status).toBe('active');
    // Every service host resolves to the same ingress (production's wildcard DNS): addresses say nothing.
    const other = 'web-other.slipway.example';
    await dns.addA(other, ['203.0.113.10']);
    await dns.addA(HOST, ['203.0.113.10']);
    await dns.setCname(domain, other);
    advance(24 * 60 * MINUTE);
    const lapsed = await runOnce();
    expect(lapsed).toMatchObject({ status: 'pending_dns', verified_at: null });
    expect(lapsed.cause).toContain(`${domain} points to ${other}`);
    expect(recording.customHosts.get(workspace.id)?.map((host) => host.host)).not.toContain(domain);
    expect(await allowed()).toBe(false);
    // Pending again, it backs off as a new claim does, and comes back once its DNS is its own again.
    expect(await gap()).toBe(MINUTE);
    await dns.setCname(domain, HOST);
    advance(MINUTE);
    expect((await runOnce()).status).toBe('active');
    expect(recording.customHosts.get(workspace.id)?.map((host) => host.host)).toContain(domain);
  });
});
