import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDns, type TestDns } from '../test/fixtures/testDns.js';
import { createDnsChecks, type DnsVerdict } from './dnsChecks.js';
import { createDnsLookups } from './dnsLookups.js';
import type { DomainTarget } from './domainTarget.js';

const PLATFORM = 'example.net';
const HOST = 'web-myapp.example.net';
const OTHER_HOST = 'web-other.example.net';
const TOKEN = 'tok_4y0Yl0cR8pQ2wZ6vN1sK3dH7fJ9bX5mA0eU2iO4gT6c';
const CNAME_ONLY: DomainTarget = { host: HOST, addresses: [] };
const WITH_ADDRESSES: DomainTarget = { host: HOST, addresses: ['203.0.113.10', '2001:db8::10'] };

/** A DNS server that answers every question with `rcode` (2: SERVFAIL, 3: NXDOMAIN), or never (undefined). */
async function startBrokenDns(rcode: number | undefined): Promise<{ server: string; socket: Socket }> {
  const socket = createSocket('udp4');
  socket.on('message', (query, peer) => {
    if (rcode === undefined) return;
    const answer = Buffer.from(query);
    answer[2] = (answer[2]! | 0x80) & 0xf9; // QR: a response (opcode kept, not authoritative, not truncated)
    answer[3] = 0x80 | rcode; // recursion available, the code
    socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { server: `127.0.0.1:${socket.address().port}`, socket };
}

describe('custom domain DNS checks (pebble-challtestsrv)', () => {
  let dns: TestDns;
  let checks: ReturnType<typeof createDnsChecks>;
  let zones = 0;
  /** A fresh zone per test: no CAA or records of another test above its names. */
  const zone = () => `t${++zones}.example`;

  beforeAll(async () => {
    dns = await startTestDns();
    checks = createDnsChecks({
      lookups: createDnsLookups({ servers: [dns.server], timeoutMs: 1000 }),
      caaIdentities: ['letsencrypt.org'],
      platformDomain: PLATFORM,
    });
    await dns.addA(HOST, ['203.0.113.20']);
    // Production's wildcard: every service host of the platform resolves to the same ingress addresses.
    await dns.addA(OTHER_HOST, ['203.0.113.10']);
  });
  afterAll(async () => dns?.stop());

  const check = (domain: string, target = CNAME_ONLY) =>
    checks.check(domain, { token: TOKEN, target, verified: false });
  const recheck = (domain: string, target = CNAME_ONLY) =>
    checks.check(domain, { token: TOKEN, target, verified: true });
  const fails = (cause: string, disowned = false): DnsVerdict => ({ outcome: 'fail', cause, disowned });
  const proven = async (domain: string) => dns.setTxt(`_slipway-challenge.${domain}`, TOKEN);

  it('passes a CNAME to the service host with the TXT token among several TXT records', async () => {
    const domain = `shop.${zone()}`;
    await dns.setCname(domain, HOST);
    await dns.setTxt(`_slipway-challenge.${domain}`, 'google-site-verification=abc');
    await proven(domain);
    expect(await check(domain)).toEqual({ outcome: 'pass' });
  });

  it('says there is no record yet, and what to add', async () => {
    const domain = `shop.${zone()}`;
    await proven(domain);
    expect(await check(domain)).toEqual(
      fails(`No DNS record for ${domain} yet: add a CNAME record pointing to web-myapp.example.net.`),
    );
    const apex = zone();
    await proven(apex);
    expect(await check(apex, WITH_ADDRESSES)).toEqual(
      fails(
        `No DNS record for ${apex} yet: add a CNAME record pointing to web-myapp.example.net (at a zone's apex, where a CNAME is not allowed: an A record for 203.0.113.10 and an AAAA record for 2001:db8::10).`,
      ),
    );
  });

  it('says where the name points instead, and what to change it to', async () => {
    const byAddress = `shop.${zone()}`;
    await dns.addA(byAddress, ['203.0.113.9']);
    await proven(byAddress);
    expect(await check(byAddress)).toEqual(
      fails(
        `${byAddress} points to 203.0.113.9, not to web-myapp.example.net: change its record to a CNAME record pointing to web-myapp.example.net.`,
      ),
    );
    const byAlias = `shop.${zone()}`;
    await dns.addA('elsewhere.example.org', ['198.51.100.7']);
    await dns.setCname(byAlias, 'elsewhere.example.org');
    await proven(byAlias);
    expect(await check(byAlias, WITH_ADDRESSES)).toEqual(
      fails(
        `${byAlias} points to elsewhere.example.org (198.51.100.7), not to web-myapp.example.net or 203.0.113.10 or 2001:db8::10: change its record to a CNAME record pointing to web-myapp.example.net (at a zone's apex, where a CNAME is not allowed: an A record for 203.0.113.10 and an AAAA record for 2001:db8::10).`,
      ),
    );
  });

  it('passes an apex whose addresses are this server’s, or the service host’s own (CNAME flattening)', async () => {
    const apex = zone();
    await dns.addA(apex, ['203.0.113.10']);
    await dns.addAaaa(apex, ['2001:db8:0:0::10']);
    await proven(apex);
    expect(await check(apex, WITH_ADDRESSES)).toEqual({ outcome: 'pass' });
    const flattened = zone();
    await dns.addA(flattened, ['203.0.113.20']);
    await proven(flattened);
    expect(await check(flattened, CNAME_ONLY)).toEqual({ outcome: 'pass' });
    // One address of the set elsewhere: some visitors (and the CA) would land there.
    const mixed = zone();
    await dns.addA(mixed, ['203.0.113.10', '203.0.113.9']);
    await proven(mixed);
    expect(await check(mixed, WITH_ADDRESSES)).toMatchObject({ outcome: 'fail' });
  });

  it('says the TXT record is missing, or holds another value, with the value to set', async () => {
    const missing = `shop.${zone()}`;
    await dns.setCname(missing, HOST);
    expect(await check(missing)).toEqual(
      fails(`The TXT record _slipway-challenge.${missing} is missing: add it with the value ${TOKEN}.`),
    );
    const other = `shop.${zone()}`;
    await dns.setCname(other, HOST);
    await dns.setTxt(`_slipway-challenge.${other}`, 'the-token-of-another-workspace');
    expect(await check(other)).toEqual(
      fails(`The TXT record _slipway-challenge.${other} has a different value: set it to ${TOKEN}.`),
    );
    // Once verified, a CNAME to the claim's own host proves it too (the TXT record may be cleaned up then).
    expect(await recheck(missing)).toEqual({ outcome: 'pass' });
  });

  it('proves a verified claim again with its own token or its own host, never by addresses every tenant has', async () => {
    // The apex on the ingress's addresses, the TXT record gone: any workspace's name would look the same.
    const apex = zone();
    await dns.addA(apex, ['203.0.113.10']);
    expect(await recheck(apex, WITH_ADDRESSES)).toEqual(
      fails(`The TXT record _slipway-challenge.${apex} is missing: add it with the value ${TOKEN}.`, true),
    );
    await proven(apex);
    expect(await recheck(apex, WITH_ADDRESSES)).toEqual({ outcome: 'pass' });

    // An alias to another service's host, which resolves to the same ingress: that service's name now.
    const moved = `shop.${zone()}`;
    await dns.setCname(moved, OTHER_HOST);
    await proven(moved);
    const elsewhere = `${moved} points to ${OTHER_HOST} (203.0.113.10), not to ${HOST} or 203.0.113.10 or 2001:db8::10: change its record to a CNAME record pointing to ${HOST} (at a zone's apex, where a CNAME is not allowed: an A record for 203.0.113.10 and an AAAA record for 2001:db8::10).`;
    expect(await recheck(moved, WITH_ADDRESSES)).toEqual(fails(elsewhere, true));
    // Before it is verified, the same DNS is only not ready yet (nothing to lapse).
    expect(await check(moved, WITH_ADDRESSES)).toEqual(fails(elsewhere, false));
    // A service without a host now (its workspace stopped): only whether the name is still its holder's.
    expect(
      await checks.check(moved, { token: TOKEN, target: CNAME_ONLY, verified: true, ownershipOnly: true }),
    ).toEqual(fails(`${moved} points to ${OTHER_HOST}, the host of another service.`, true));
  });

  it('reports every failure at once, so one round of DNS changes fixes them all', async () => {
    const domain = `shop.${zone()}`;
    expect(await check(domain)).toEqual(
      fails(
        `The TXT record _slipway-challenge.${domain} is missing: add it with the value ${TOKEN}. No DNS record for ${domain} yet: add a CNAME record pointing to web-myapp.example.net.`,
      ),
    );
  });

  it('climbs to the closest CAA set (RFC 8659) and fails only when it leaves the CA out', async () => {
    const parent = zone();
    // Not a CNAME: a name with a CNAME holds no other record (its alias target's CAA set would count).
    const domain = `shop.${parent}`;
    await dns.addA(domain, ['203.0.113.10']);
    await proven(domain);
    await dns.addCaa(parent, ['ca.example', 'other-ca.example; account=42']);
    expect(await check(domain, WITH_ADDRESSES)).toEqual(
      fails(
        `A CAA record on ${parent} allows only ca.example and other-ca.example to issue certificates: add letsencrypt.org.`,
      ),
    );
    // A set on the name itself is closer and wins.
    await dns.addCaa(domain, ['letsencrypt.org; validationmethods=http-01']);
    expect(await check(domain, WITH_ADDRESSES)).toEqual({ outcome: 'pass' });

    const allowing = zone();
    const allowed = `shop.${allowing}`;
    await dns.setCname(allowed, HOST);
    await proven(allowed);
    await dns.addCaa(allowing, ['ca.example', 'letsencrypt.org']);
    expect(await check(allowed)).toEqual({ outcome: 'pass' });

    const closed = zone();
    await dns.addA(closed, ['203.0.113.10']);
    await proven(closed);
    await dns.addCaa(closed, [';']);
    expect(await check(closed, WITH_ADDRESSES)).toEqual(
      fails(`A CAA record on ${closed} allows no one to issue certificates: add letsencrypt.org.`),
    );
  });

  it('gives no verdict when a question goes unanswered: a timeout, SERVFAIL, no server', async () => {
    const cases: [number | undefined | 'closed', string][] = [
      [undefined, 'the DNS server did not answer in time'],
      [
        2,
        "its name servers answered with an error (SERVFAIL); if this lasts, check the domain's name servers and DNSSEC at its DNS provider",
      ],
      ['closed', 'the DNS server could not be reached'],
    ];
    for (const [rcode, reason] of cases) {
      const broken = await startBrokenDns(rcode === 'closed' ? undefined : rcode);
      // A port nothing listens on any more: the question is refused by the machine (ICMP port unreachable).
      if (rcode === 'closed') broken.socket.close();
      try {
        const unanswered = createDnsChecks({
          lookups: createDnsLookups({ servers: [broken.server], timeoutMs: 200, tries: 1 }),
          caaIdentities: ['letsencrypt.org'],
        });
        expect(
          await unanswered.check('shop.example.com', { token: TOKEN, target: CNAME_ONLY, verified: false }),
        ).toEqual({
          outcome: 'unknown',
          cause: `The DNS records of shop.example.com could not be checked: ${reason}. Slipway will try again.`,
        });
      } finally {
        if (rcode !== 'closed') broken.socket.close();
      }
    }
  });

  it('takes NXDOMAIN, as real resolvers answer an unknown name, for "no record"', async () => {
    const nxdomain = await startBrokenDns(3);
    try {
      const real = createDnsChecks({
        lookups: createDnsLookups({ servers: [nxdomain.server], timeoutMs: 500, tries: 1 }),
        caaIdentities: ['letsencrypt.org'],
      });
      expect(
        await real.check('shop.example.com', { token: TOKEN, target: CNAME_ONLY, verified: false }),
      ).toEqual(
        fails(
          `The TXT record _slipway-challenge.shop.example.com is missing: add it with the value ${TOKEN}. No DNS record for shop.example.com yet: add a CNAME record pointing to web-myapp.example.net.`,
        ),
      );
    } finally {
      nxdomain.socket.close();
    }
  });
});
