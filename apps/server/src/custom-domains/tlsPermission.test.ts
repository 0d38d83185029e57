import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDns, type TestDns } from '../test/fixtures/testDns.js';
import { createRecordingIngress } from '../test/recordingIngress.js';
import { insertWorkspace } from '../test/runningWorkspaces.js';
import { createTestContext, signInNewUser, type TestContext } from '../test/testPlatform.js';

/** An IPv4 address of this machine that is not loopback (eth0, the docker0 bridge), if it has one. */
const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;

describe('the permission question over the network', () => {
  let dns: TestDns;
  let ctx: TestContext;
  let port: number;
  const domain = 'shop.permission.example';
  const ask = (host: string, name = domain) =>
    fetch(`http://${host}:${port}/api/tls/permission?domain=${encodeURIComponent(name)}`);

  beforeAll(async () => {
    dns = await startTestDns();
    const recording = createRecordingIngress();
    ctx = await createTestContext({ env: { DNS_SERVERS: dns.server }, ingress: recording.ingress });
    const { userId } = await signInNewUser(ctx);
    const host = 'web-shop.slipway.example';
    const workspace = await insertWorkspace(ctx.platform, {
      userId,
      serviceUrls: { web: `https://${host}` },
    });
    const claim = await ctx.platform.customDomains.service.add({ id: userId }, workspace.name, {
      domain,
      service: 'web',
    });
    await dns.setTxt(claim.records[0]!.name, claim.records[0]!.value);
    await dns.setCname(domain, host);
    expect(
      (await ctx.platform.customDomains.service.verify({ id: userId }, workspace.name, domain)).status,
    ).toBe('issuing');
    await ctx.app.listen({ host: '0.0.0.0', port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await ctx?.close();
    await dns?.stop();
  });

  it('says yes to loopback only: an address of this machine that is not loopback is told nothing is there', async () => {
    expect(outsideAddress, 'a non-loopback IPv4 address of this machine').toBeDefined();
    const loopback = await ask('127.0.0.1');
    expect([loopback.status, await loopback.json()]).toEqual([200, { allowed: true }]);
    const outside = await ask(outsideAddress!);
    expect(outside.status).toBe(404);
    expect(await outside.text()).not.toContain('allowed');
  });

  it('refuses a flood of random names, and still says yes to the verified one among them', async () => {
    // How fast it answers under a flood is bench/custom-domains.ts's figure; answering from memory, one load
    // for many questions, is servableNames.test.ts's.
    const answers = await Promise.all(
      Array.from({ length: 300 }, async () => {
        const response = await ask('127.0.0.1', `${randomBytes(6).toString('hex')}.flood.example`);
        await response.body?.cancel();
        return response.status;
      }),
    );
    expect(new Set(answers)).toEqual(new Set([404]));
    expect((await ask('127.0.0.1')).status).toBe(200);
  });
});
