import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchThroughCaddy, startCaddy } from '../../test/fixtures/caddyProcess.js';
import { describeWith } from '../../test/services.js';
import { createCaddyAdmin } from './caddyAdmin.js';
import { createCaddyIngress, workspaceRouteId } from './caddyIngress.js';

const A = { id: '00000000-0000-4000-8000-00000000000a', name: 'shop' };
const B = { id: '00000000-0000-4000-8000-00000000000b', name: 'shop' };

/** A plain HTTP upstream on loopback answering with its own name. */
async function upstream(name: string) {
  const server = http.createServer((_request, response) => response.end(name));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { dial: `127.0.0.1:${port}`, port, close: () => new Promise((r) => server.close(r)) };
}

async function waitForAnswer(url: string, ca: string, body: string) {
  let last: unknown;
  for (let i = 0; i < 100; i++) {
    last = await fetchThroughCaddy(url, ca).catch((error: Error) => error.message);
    if ((last as { body?: string }).body === body) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} never answered ${body}: last ${JSON.stringify(last)}`);
}

describeWith('docker')('Caddy ingress (a real Caddy)', () => {
  let caddy: Awaited<ReturnType<typeof startCaddy>>;
  let blue: Awaited<ReturnType<typeof upstream>>;
  let green: Awaited<ReturnType<typeof upstream>>;
  let ingress: ReturnType<typeof createCaddyIngress>;
  const admin = () => createCaddyAdmin({ adminUrl: caddy.adminUrl });
  const topLevelIds = async () =>
    (((await admin().read('/config/apps/http/servers/slipway/routes')) ?? []) as { '@id': string }[]).map(
      (route) => route['@id'],
    );

  beforeAll(async () => {
    caddy = await startCaddy();
    [blue, green] = [await upstream('blue'), await upstream('green')];
    ingress = createCaddyIngress({
      adminUrl: caddy.adminUrl,
      publicDomain: undefined,
      httpsPort: caddy.httpsPort,
      retryDelayMs: 100,
    });
  });

  afterAll(async () => {
    await caddy?.stop();
    await blue?.close();
    await green?.close();
  });

  it('puts all of a workspace in one route, replaced in place, each service keeping its URL', async () => {
    const targets = [
      { service: 'web', upstream: blue.dial, hostPort: blue.port },
      { service: 'api', upstream: blue.dial, hostPort: blue.port },
    ];
    const urls = await ingress.publish(A, targets);
    expect(urls).toEqual({
      web: `https://web-shop.localhost:${caddy.httpsPort}`,
      api: `https://api-shop.localhost:${caddy.httpsPort}`,
    });
    await waitForAnswer(urls.web!, caddy.rootCertificate(), 'blue');

    const again = await ingress.publish(
      A,
      [{ service: 'web', upstream: green.dial, hostPort: green.port }],
      urls,
    );
    expect(again).toEqual({ web: urls.web });
    expect(await topLevelIds()).toEqual([workspaceRouteId(A.id)]);
    await waitForAnswer(urls.web!, caddy.rootCertificate(), 'green');
    // The service that went is no longer routed.
    expect(
      (await fetchThroughCaddy(urls.api!, caddy.rootCertificate()).catch(() => ({ body: '' }))).body,
    ).not.toBe('blue');
  });

  it("gives another user's workspace of the same name hosts of its own, and keeps them across a restore", async () => {
    const urls = await ingress.publish(B, [{ service: 'web', upstream: blue.dial, hostPort: blue.port }]);
    expect(urls.web).toBe(`https://web-shop-${B.id.slice(0, 8)}.localhost:${caddy.httpsPort}`);
    expect(await ingress.missing([A.id, B.id])).toEqual([]);
    // Served before Caddy restarts: a restart in the middle of getting the new host's certificate would leave
    // a lock the next Caddy waits out (about 10 s, longer on a loaded machine) before it issues one again.
    await waitForAnswer(urls.web!, caddy.rootCertificate(), 'blue');

    await caddy.restartEmpty();
    expect(await ingress.missing([A.id, B.id])).toEqual([A.id, B.id]);
    // Restored in the other order: each still gets the URL it had.
    expect(
      await ingress.publish(B, [{ service: 'web', upstream: blue.dial, hostPort: blue.port }], urls),
    ).toEqual(urls);
    expect(
      (
        await ingress.publish(A, [{ service: 'web', upstream: green.dial, hostPort: green.port }], {
          web: `https://web-shop.localhost:${caddy.httpsPort}`,
        })
      ).web,
    ).toBe(`https://web-shop.localhost:${caddy.httpsPort}`);
    await waitForAnswer(urls.web!, caddy.rootCertificate(), 'blue');
  });

  it('replaces the earlier one-route-per-service layout in the same update', async () => {
    const legacy = `slipway-${A.id}-web`;
    await ingress.unpublish(A.id);
    await admin().call('POST', '/config/apps/http/servers/slipway/routes', {
      '@id': legacy,
      match: [{ host: ['web-shop.localhost'] }],
      handle: [{ handler: 'static_response', body: 'old' }],
      terminal: true,
    });
    await ingress.publish(A, [{ service: 'web', upstream: green.dial, hostPort: green.port }]);
    expect(await topLevelIds()).not.toContain(legacy);
    expect(await topLevelIds()).toContain(workspaceRouteId(A.id));
  });

  it('takes a workspace off and says so; unpublishing twice is fine', async () => {
    await ingress.unpublish(B.id);
    await ingress.unpublish(B.id);
    expect(await ingress.missing([A.id, B.id])).toEqual([B.id]);
  });

  it('counts the requests in flight to an upstream, so a switch can wait for them', async () => {
    // An upstream that holds each answer until told to let go.
    const held: http.ServerResponse[] = [];
    const slow = http.createServer((_request, response) => held.push(response));
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const dial = `127.0.0.1:${(slow.address() as AddressInfo).port}`;
    try {
      const urls = await ingress.publish(B, [{ service: 'slow', upstream: dial, hostPort: 1 }]);
      expect(await ingress.inFlight([dial])).toBe(0);
      // A new host's certificate takes a moment: a request refused before it is ready is sent again.
      let answered: ReturnType<typeof fetchThroughCaddy> | undefined;
      let refused = false;
      for (let i = 0; (await ingress.inFlight([dial])) !== 1; i++) {
        if (i > 200) throw new Error('Caddy never counted the request');
        if (!answered || refused) {
          refused = false;
          answered = fetchThroughCaddy(urls.slow!, caddy.rootCertificate());
          answered.catch(() => {
            refused = true;
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await ingress.inFlight([blue.dial])).toBe(0);
      held.shift()!.end('let go');
      expect((await answered!).body).toBe('let go');
      expect(await ingress.inFlight([dial])).toBe(0);
    } finally {
      for (const response of held) response.end();
      await new Promise((resolve) => slow.close(resolve));
      await ingress.unpublish(B.id);
    }
  });

  it('waits out a Caddy that is down for a moment, and fails with its reason when it stays down', async () => {
    await caddy.halt();
    const patient = createCaddyIngress({
      adminUrl: caddy.adminUrl,
      publicDomain: undefined,
      httpsPort: caddy.httpsPort,
      attempts: 50,
      retryDelayMs: 20,
    });
    const publishing = patient.publish(B, [{ service: 'web', upstream: blue.dial, hostPort: blue.port }]);
    await caddy.restartEmpty();
    expect((await publishing).web).toContain('web-shop');

    await caddy.halt();
    const down = createCaddyIngress({
      adminUrl: caddy.adminUrl,
      publicDomain: undefined,
      httpsPort: caddy.httpsPort,
      retryDelayMs: 10,
    });
    await expect(
      down.publish(A, [{ service: 'web', upstream: blue.dial, hostPort: blue.port }]),
    ).rejects.toThrow(/^Caddy .*ECONNREFUSED/);
    await caddy.restartEmpty();
  });
});

describe('direct ingress', () => {
  it('is never missing anything and has nothing in flight', async () => {
    const { createDirectIngress } = await import('./ingress.js');
    expect(await createDirectIngress().missing(['x'])).toEqual([]);
    expect(await createDirectIngress().inFlight(['127.0.0.1:1'])).toBe(0);
  });
});
