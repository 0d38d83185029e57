import type { CustomDomain } from '@slipway/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaces } from '../infra/db/schema.js';
import { startTestDns, type TestDns } from '../test/fixtures/testDns.js';
import { createRecordingIngress, type RecordingIngress } from '../test/recordingIngress.js';
import { insertWorkspace, waitUntil } from '../test/runningWorkspaces.js';
import type { TestClient } from '../test/testClient.js';
import { createTestContext, signInNewUser, type TestContext } from '../test/testPlatform.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';

const PLATFORM_DOMAIN = 'slipway.example';
const ADDRESS = '203.0.113.10';

interface Owner {
  client: TestClient;
  userId: string;
  workspace: WorkspaceRow;
  host: string;
}

describe('custom domains: claims, Verify, the permission question', () => {
  let dns: TestDns;
  let ctx: TestContext;
  let recording: RecordingIngress;
  let domains = 0;
  const fresh = (label = 'shop') => `${label}.d${++domains}.example`;

  async function newOwner(): Promise<Owner> {
    const { client, userId } = await signInNewUser(ctx);
    const name = `app-${Math.random().toString(16).slice(2, 8)}`;
    const host = `web-${name}.${PLATFORM_DOMAIN}`;
    const workspace = await insertWorkspace(ctx.platform, {
      userId,
      name,
      serviceUrls: { web: `https://${host}` },
    });
    // Production's wildcard DNS: every service host of the platform resolves to the ingress.
    await dns.addA(host, [ADDRESS]);
    return { client, userId, workspace, host };
  }
  const base = (owner: Owner) => `/api/workspace-domains/${owner.workspace.name}`;
  const add = (owner: Owner, domain: string, extra: Record<string, unknown> = {}) =>
    owner.client.post(base(owner), { domain, service: 'web', ...extra });
  const verify = async (owner: Owner, domain: string) =>
    (await owner.client.post(`${base(owner)}/${domain}/verify`)).json() as CustomDomain;
  const listed = async (owner: Owner, domain: string) =>
    ((await owner.client.get(base(owner))).json() as CustomDomain[]).find((d) => d.domain === domain);
  const permission = (domain: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({
      method: 'GET',
      url: `/api/tls/permission?domain=${encodeURIComponent(domain)}`,
      headers,
    });
  /** The records a user adds: the claim's TXT token and a CNAME to the service's own host. */
  async function pointAndProve(owner: Owner, claim: CustomDomain) {
    const txt = claim.records.find((record) => record.type === 'TXT')!;
    await dns.setTxt(txt.name, txt.value);
    await dns.setCname(claim.domain, owner.host);
  }
  async function activate(owner: Owner, domain: string): Promise<CustomDomain> {
    const claim = (await add(owner, domain)).json() as CustomDomain;
    await pointAndProve(owner, claim);
    expect((await verify(owner, domain)).status).toBe('issuing');
    return waitUntil(
      async () => {
        const now = await listed(owner, domain);
        return now?.status === 'active' && now;
      },
      60_000,
      `${domain} active`,
    );
  }

  beforeAll(async () => {
    dns = await startTestDns();
    recording = createRecordingIngress();
    ctx = await createTestContext({
      env: { DNS_SERVERS: dns.server, PUBLIC_DOMAIN: PLATFORM_DOMAIN, INGRESS_ADDRESSES: ADDRESS },
      ingress: recording.ingress,
    });
  });
  afterAll(async () => {
    await ctx?.close();
    await dns?.stop();
  });

  it('adds a claim with its TXT token and the records to point it, an IDN in both forms', async () => {
    const owner = await newOwner();
    const response = await add(owner, 'Bücher.Example.', { redirect_www: true });
    expect(response.statusCode).toBe(201);
    const claim = response.json() as CustomDomain;
    const token = claim.records[0]!.value;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(claim).toMatchObject({
      domain: 'xn--bcher-kva.example',
      unicode_domain: 'bücher.example',
      service: 'web',
      status: 'pending_dns',
      cause: null,
      redirect_www: true,
      url: 'https://xn--bcher-kva.example',
      certificate: null,
      verified_at: null,
    });
    expect(claim.records).toEqual([
      { type: 'TXT', name: '_slipway-challenge.xn--bcher-kva.example', value: token },
      { type: 'CNAME', name: 'xn--bcher-kva.example', value: owner.host },
      { type: 'A', name: 'xn--bcher-kva.example', value: ADDRESS },
      { type: 'CNAME', name: 'www.xn--bcher-kva.example', value: owner.host },
      { type: 'A', name: 'www.xn--bcher-kva.example', value: ADDRESS },
    ]);
    // The first background check comes a minute later.
    expect(Date.parse(claim.next_check_at!) - Date.parse(claim.created_at)).toBeGreaterThan(55_000);
    // Another workspace's claim on the same name gets a token of its own.
    const other = await newOwner();
    const second = (await add(other, 'bücher.example')).json() as CustomDomain;
    expect(second.records[0]!.value).not.toBe(token);
  });

  it('refuses names the platform answers itself, services without a URL, and a full workspace', async () => {
    const owner = await newOwner();
    const refused = async (body: Record<string, unknown>) => {
      const response = await owner.client.post(base(owner), { service: 'web', ...body });
      return [response.statusCode, response.json().error];
    };
    expect(await refused({ domain: `shop.${PLATFORM_DOMAIN}` })).toEqual([
      422,
      `shop.${PLATFORM_DOMAIN} is under this platform's own domain ${PLATFORM_DOMAIN}: its services already have names there; add a domain of your own.`,
    ]);
    expect(await refused({ domain: 'shop.localhost' })).toEqual([
      422,
      'shop.localhost is a local name (.localhost): a custom domain must be a public DNS name.',
    ]);
    expect(await refused({ domain: fresh(), service: 'worker' })).toEqual([
      422,
      `worker has no URL in ${owner.workspace.name}: a domain can serve web.`,
    ]);
    const stranger = await signInNewUser(ctx);
    const response = await stranger.client.post(base(owner), { domain: fresh(), service: 'web' });
    expect(response.statusCode).toBe(404);
    expect((await stranger.client.get(base(owner))).statusCode).toBe(404);

    const full = await newOwner();
    for (let i = 0; i < 50; i++) expect((await add(full, `n${i}.full.example`)).statusCode).toBe(201);
    const fiftyFirst = await add(full, 'n50.full.example');
    expect([fiftyFirst.statusCode, fiftyFirst.json().error]).toEqual([
      422,
      `${full.workspace.name} has 50 domains, the most a workspace can have: remove one first.`,
    ]);
    const twice = await add(owner, 'twice.example');
    expect(twice.statusCode).toBe(201);
    expect((await add(owner, 'TWICE.example.')).json().error).toBe(
      `twice.example is already a domain of ${owner.workspace.name}.`,
    );
  });

  it('verifies a claim whose records check out: onto the route, a certificate, Active', async () => {
    const owner = await newOwner();
    const domain = fresh();
    const claim = (await add(owner, domain)).json() as CustomDomain;
    const pending = await verify(owner, domain);
    expect(pending).toMatchObject({ status: 'pending_dns', verified_at: null });
    expect(pending.cause).toBe(
      `The TXT record _slipway-challenge.${domain} is missing: add it with the value ${claim.records[0]!.value}. No DNS record for ${domain} yet: add a CNAME record pointing to ${owner.host} (at a zone's apex, where a CNAME is not allowed: an A record for ${ADDRESS}).`,
    );
    expect((await permission(domain)).statusCode).toBe(404);

    await pointAndProve(owner, claim);
    const issuing = await verify(owner, domain);
    expect(issuing).toMatchObject({ status: 'issuing', cause: null });
    expect(issuing.verified_at).not.toBeNull();
    expect(recording.customHosts.get(owner.workspace.id)).toEqual([
      { host: domain, service: 'web', redirectWww: false },
    ]);
    const active = await waitUntil(async () => {
      const now = await listed(owner, domain);
      return now?.status === 'active' && now;
    }, 60_000);
    expect(active.certificate).toEqual({ issuer: 'Test CA', not_after: '2027-03-01T00:00:00.000Z' });
    expect(recording.asked).toContain(domain);
    expect((await permission(domain)).json()).toEqual({ allowed: true });
  });

  it('verifies ten domains of one workspace at once: one route write at a time, none of them lost', async () => {
    const owner = await newOwner();
    const names = Array.from({ length: 10 }, (_, i) => fresh(`shop${i}`));
    for (const domain of names) await pointAndProve(owner, (await add(owner, domain)).json() as CustomDomain);
    recording.writes.most = 0;
    const verified = await Promise.all(names.map((domain) => verify(owner, domain)));
    expect(verified.map((claim) => claim.status)).toEqual(names.map(() => 'issuing'));
    expect(recording.writes.most).toBe(1);
    expect(
      recording.customHosts
        .get(owner.workspace.id)
        ?.map((host) => host.host)
        .sort(),
    ).toEqual([...names].sort());
  });

  it('lets no second workspace claim or verify a verified domain, and does not say whose it is', async () => {
    const [first, second] = [await newOwner(), await newOwner()];
    const domain = fresh();
    // The second claims it first, while nobody has proven it: a squatter cannot block the owner.
    const squat = (await add(second, domain)).json() as CustomDomain;
    await activate(first, domain);

    const refused = await add(await newOwner(), domain);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'conflict',
      error: `${domain} is already in use by another workspace: it can be added here once it is removed there.`,
    });
    expect(refused.body).not.toContain(first.workspace.name);
    expect(refused.body).not.toContain(first.userId);

    // Even with its own token in DNS beside the owner's, and the name on this server's address (which both
    // workspaces' targets accept), the earlier claim cannot verify it now.
    await dns.setTxt(`_slipway-challenge.${domain}`, squat.records[0]!.value);
    await dns.clearCname(domain);
    await dns.addA(domain, [ADDRESS]);
    const late = await verify(second, domain);
    expect(late).toMatchObject({
      status: 'pending_dns',
      verified_at: null,
      cause: `${domain} was verified by another workspace first: it can be verified here only once it is removed there.`,
    });
    expect(recording.customHosts.get(second.workspace.id) ?? []).toEqual([]);
  });

  it('removes a domain from its route at once; claimed again only with the new workspace’s own token', async () => {
    const [first, second] = [await newOwner(), await newOwner()];
    const domain = fresh();
    const kept = fresh('kept');
    await activate(first, kept);
    await activate(first, domain);
    expect(recording.customHosts.get(first.workspace.id)?.map((host) => host.host)).toEqual(
      [domain, kept].sort(),
    );

    const removed = await first.client.delete(`${base(first)}/${domain}`);
    expect(removed.json()).toEqual({
      success: true,
      message: `${domain} removed from ${first.workspace.name}`,
    });
    expect(recording.customHosts.get(first.workspace.id)?.map((host) => host.host)).toEqual([kept]);
    expect((await permission(domain)).statusCode).toBe(404);
    expect((await first.client.delete(`${base(first)}/${domain}`)).statusCode).toBe(404);

    // The name now points at the second workspace's service, but the first workspace's TXT record is still
    // there: it proves nothing for the second.
    await dns.setCname(domain, second.host);
    const claim = (await add(second, domain)).json() as CustomDomain;
    const token = claim.records[0]!.value;
    expect((await verify(second, domain)).cause).toBe(
      `The TXT record _slipway-challenge.${domain} has a different value: set it to ${token}.`,
    );
    await dns.clearTxt(`_slipway-challenge.${domain}`);
    await dns.setTxt(`_slipway-challenge.${domain}`, token);
    expect((await verify(second, domain)).status).toBe('issuing');
  });

  /** The DNS a new owner sets: their own token in place of the old one, and a CNAME to their own service. */
  async function moveDns(domain: string, to: Owner, claim: CustomDomain) {
    await dns.clearTxt(`_slipway-challenge.${domain}`);
    await dns.clearA(domain);
    await dns.setTxt(`_slipway-challenge.${domain}`, claim.records[0]!.value);
    await dns.setCname(domain, to.host);
  }
  const routedNames = (owner: Owner) =>
    (recording.customHosts.get(owner.workspace.id) ?? []).map((host) => host.host);
  const lapsedCause = (domain: string) =>
    `${domain} is no longer served here: its DNS does not show it is this workspace's now.`;

  it('moves a verified name to the workspace its new DNS names: the holder’s claim lapses, off its route (issue 39)', async () => {
    const [first, second] = [await newOwner(), await newOwner()];
    const domain = fresh('squat');
    // The second claims it while nobody has proven it (allowed), then the first proves it.
    const claim = (await add(second, domain)).json() as CustomDomain;
    await activate(first, domain);
    expect(routedNames(first)).toEqual([domain]);

    // The DNS moves to the second: its token, a CNAME to its host (which resolves to the same ingress).
    await moveDns(domain, second, claim);
    expect(await verify(second, domain)).toMatchObject({ status: 'issuing', cause: null });
    expect(routedNames(second)).toEqual([domain]);
    expect(routedNames(first)).toEqual([]);
    const lapsed = (await listed(first, domain))!;
    expect(lapsed).toMatchObject({ status: 'pending_dns', verified_at: null, certificate: null });
    expect(lapsed.cause).toBe(
      `${lapsedCause(domain)} The TXT record _slipway-challenge.${domain} has a different value: set it to ${
        (await listed(first, domain))!.records[0]!.value
      }. ${domain} points to ${second.host} (${ADDRESS}), not to ${first.host} or ${ADDRESS}: change its record to a CNAME record pointing to ${first.host} (at a zone's apex, where a CNAME is not allowed: an A record for ${ADDRESS}).`,
    );
    // The permission question now says yes for the second's claim (and the first cannot take it back).
    expect((await permission(domain)).statusCode).toBe(200);
    expect(await verify(first, domain)).toMatchObject({ status: 'pending_dns', verified_at: null });
    expect(routedNames(second)).toEqual([domain]);
  });

  it('lapses a verified claim at its own check once its DNS proves it no more: no token, addresses every tenant has', async () => {
    const owner = await newOwner();
    const domain = fresh();
    await activate(owner, domain);
    // The token removed, the name on the ingress's address: any workspace's name would look the same.
    await dns.clearTxt(`_slipway-challenge.${domain}`);
    await dns.clearCname(domain);
    await dns.addA(domain, [ADDRESS]);
    const lapsed = await verify(owner, domain);
    expect(lapsed).toMatchObject({ status: 'pending_dns', verified_at: null });
    expect(lapsed.cause).toBe(
      `${lapsedCause(domain)} The TXT record _slipway-challenge.${domain} is missing: add it with the value ${lapsed.records[0]!.value}.`,
    );
    expect(routedNames(owner)).toEqual([]);
    expect((await permission(domain)).statusCode).toBe(404);
    // Its own records back: verified again.
    await dns.setTxt(`_slipway-challenge.${domain}`, lapsed.records[0]!.value);
    expect((await verify(owner, domain)).status).toBe('issuing');
    expect(routedNames(owner)).toEqual([domain]);
  });

  it('lets the new DNS owner add a name its holder no longer proves: the holder is asked again at once', async () => {
    const [first, second] = [await newOwner(), await newOwner()];
    const domain = fresh();
    await activate(first, domain);
    // Still the first's: refused, without saying whose.
    expect((await add(second, domain)).statusCode).toBe(409);
    // The DNS owner points the name at the second's service and removes the first's token, then adds it there.
    await dns.clearTxt(`_slipway-challenge.${domain}`);
    await dns.setCname(domain, second.host);
    const added = await add(second, domain);
    expect(added.statusCode).toBe(201);
    expect(await listed(first, domain)).toMatchObject({ status: 'pending_dns', verified_at: null });
    expect(routedNames(first)).toEqual([]);
    await dns.setTxt(`_slipway-challenge.${domain}`, (added.json() as CustomDomain).records[0]!.value);
    expect((await verify(second, domain)).status).toBe('issuing');
  });

  it('lets the owner of a Misconfigured domain’s DNS prove it for another workspace with that one’s token', async () => {
    const [first, second] = [await newOwner(), await newOwner()];
    const domain = fresh();
    await activate(first, domain);
    // The name moves off this server, the first's token still there: Misconfigured, still on its route.
    await dns.clearCname(domain);
    await dns.addA(domain, ['198.51.100.23']);
    expect(await verify(first, domain)).toMatchObject({ status: 'misconfigured' });
    expect(routedNames(first)).toEqual([domain]);
    expect((await permission(domain)).statusCode).toBe(404);

    const claim = (await add(second, domain)).json() as CustomDomain;
    expect(claim.status).toBe('pending_dns');
    await moveDns(domain, second, claim);
    expect((await verify(second, domain)).status).toBe('issuing');
    expect(await listed(first, domain)).toMatchObject({ status: 'pending_dns', verified_at: null });
    expect(routedNames(first)).not.toContain(domain);
    expect(routedNames(second)).toEqual([domain]);
  });

  it('refuses look-alike names and says what is wrong with each bad name', async () => {
    const owner = await newOwner();
    const refused = async (domain: string) => {
      const response = await add(owner, domain);
      return [response.statusCode, response.json().error];
    };
    expect(await refused('pаypal.com')).toEqual([
      400,
      // Refusals of the body's fields that do not start with a capital are prefixed with the field's name.
      'pаypal.com mixes Latin and Cyrillic letters in "pаypal" ("а" is Cyrillic), as names made to pass for others do: write each part of the name in one script',
    ]);
    expect(await refused('shop.exаmple.com')).toEqual([
      400,
      expect.stringContaining('mixes Latin and Cyrillic'),
    ]);
    expect(await refused('localhost')).toEqual([
      400,
      'localhost is the name of this machine itself: a custom domain is a public DNS name, like shop.example.com',
    ]);
    expect(await refused('203.0.113.10')).toEqual([400, expect.stringContaining('is an IP address')]);
    expect(await refused(`${'a'.repeat(64)}.example`)).toEqual([
      400,
      expect.stringContaining('is 64 characters long: each part of a domain name between dots is at most 63'),
    ]);
    expect(await refused(`${'a.'.repeat(135)}com`)).toEqual([
      400,
      'This domain name is 273 characters long: a domain name is at most 253',
    ]);
  });

  it('answers the permission question only for the exact verified name, on loopback, unforwarded', async () => {
    const owner = await newOwner();
    const domain = fresh();
    await activate(owner, domain);
    const pendingOwner = await newOwner();
    const pending = fresh();
    await add(pendingOwner, pending);

    expect((await permission(domain)).statusCode).toBe(200);
    for (const asked of [
      domain.toUpperCase(),
      `${domain}.`,
      pending,
      pending.toUpperCase(),
      `${pending}.`,
      'unknown.example.org',
      '203.0.113.10',
      '[2001:db8::10]',
      '',
      `www.${domain}`,
    ]) {
      const response = await permission(asked);
      expect([asked, response.statusCode]).toEqual([asked, 404]);
    }
    // Through a proxy on this machine: the request came from elsewhere.
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      expect((await permission(domain, { [header]: '198.51.100.1' })).statusCode).toBe(404);
    }
  });

  it('answers the www companion of a domain that redirects, and a failed one (the CA may be asked again)', async () => {
    const owner = await newOwner();
    const domain = fresh();
    const claim = (await add(owner, domain, { redirect_www: true })).json() as CustomDomain;
    await pointAndProve(owner, claim);
    await verify(owner, domain);
    expect((await permission(`www.${domain}`)).statusCode).toBe(200);

    const retryAfter = new Date('2026-12-01T10:30:00.000Z');
    recording.emit({
      host: domain,
      kind: 'failed',
      message: 'Error creating new order :: too many certificates already issued for "example". ',
      retryAfter,
    });
    const failed = await waitUntil(async () => {
      const now = await listed(owner, domain);
      return now?.status === 'failed' && now;
    }, 60_000);
    expect(failed).toMatchObject({
      cause: `The certificate authority refused ${domain}: Error creating new order :: too many certificates already issued for "example". It can be asked again after 2026-12-01 10:30 UTC; Slipway will ask then.`,
      retry_after: retryAfter.toISOString(),
      next_check_at: retryAfter.toISOString(),
    });
    expect((await permission(domain)).statusCode).toBe(200);
    recording.emit({ host: domain, kind: 'obtained' });
    await waitUntil(async () => (await listed(owner, domain))?.status === 'active', 60_000);
  });

  it('forgets a deleted workspace’s domains: the permission question is refused', async () => {
    const owner = await newOwner();
    const domain = fresh();
    await activate(owner, domain);
    await ctx.platform.db.delete(workspaces).where(eq(workspaces.id, owner.workspace.id));
    expect((await permission(domain)).statusCode).toBe(404);
  });
});

describe('custom domains without Caddy', () => {
  it('refuses to add one, saying what is missing', async () => {
    const ctx = await createTestContext();
    try {
      const { client, userId } = await signInNewUser(ctx);
      const workspace = await insertWorkspace(ctx.platform, {
        userId,
        serviceUrls: { web: 'http://localhost:3001' },
      });
      const response = await client.post(`/api/workspace-domains/${workspace.name}`, {
        domain: 'shop.example.com',
        service: 'web',
      });
      expect([response.statusCode, response.json().error]).toEqual([
        422,
        'Custom domains need the HTTPS ingress (Caddy), which this server does not run: set CADDY_ADMIN_URL.',
      ]);
    } finally {
      await ctx.close();
    }
  });
});
