import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchThroughCaddy, requestThroughCaddy, startCaddy } from '../../test/fixtures/caddyProcess.js';
import { freePort } from '../../test/fixtures/freePort.js';
import { type Pebble, startPebble } from '../../test/fixtures/pebbleProcess.js';
import { startTestDns, type TestDns } from '../../test/fixtures/testDns.js';
import { createCaddyAdmin } from './caddyAdmin.js';
import { createCaddyIngress, workspaceRouteId } from './caddyIngress.js';
import type { CertificateEvent, CustomHost, Ingress } from './ingress.js';
import { handshake, httpsAddressOf } from './servedCertificate.js';

const W = { id: '00000000-0000-4000-8000-0000000000c1', name: 'shop' };
const SHOP = 'shop.example.test';
const onPath = (command: string) =>
  (process.env.PATH ?? '').split(path.delimiter).some((dir) => existsSync(path.join(dir, command)));
const tools = ['caddy', 'pebble', 'pebble-challtestsrv', 'openssl'];

/** Slipway's permission endpoint as Caddy sees it: 200 for the names allowed, 403 otherwise; it notes each one. */
async function permissionEndpoint() {
  const allowed = new Set<string>();
  const asked: string[] = [];
  const server = http.createServer((request, response) => {
    const domain = new URL(request.url ?? '/', 'http://x').searchParams.get('domain') ?? '';
    asked.push(domain);
    response.statusCode = allowed.has(domain) ? 200 : 403;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/tls/permission`,
    allowed,
    asked,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Waits for `check` to hold, polling; fails with `what` after `withinMs`. */
async function until(what: string, check: () => boolean | Promise<boolean>, withinMs = 60_000) {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function httpGet(port: number, host: string, pathname: string) {
  return new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: pathname, headers: { host }, agent: false }, (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, location: response.headers.location }),
        );
      })
      .on('error', reject);
  });
}

/**
 * A pass-through to Caddy's admin API that can hold back the next request of a method until released: the
 * moment between a read and its write, made long enough for another writer to come in between.
 */
async function holdingProxy(adminUrl: string) {
  const target = new URL(adminUrl);
  let hold: { method: string; held: (release: () => void) => void } | undefined;
  const server = http.createServer((request, response) => {
    const forward = () =>
      request.pipe(
        http.request(
          {
            host: target.hostname,
            port: target.port,
            path: request.url,
            method: request.method,
            headers: { ...request.headers, host: target.host },
          },
          (answer) => {
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(response, { end: false });
            // Caddy sends a read's etag as a trailer.
            answer.on('end', () => {
              response.addTrailers(answer.trailers as Record<string, string>);
              response.end();
            });
          },
        ),
      );
    if (hold && request.method === hold.method) {
      const { held } = hold;
      hold = undefined;
      held(forward);
    } else {
      forward();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Resolves, with the function that lets it through, once a request of `method` is held. */
    holdNext: (method: string) =>
      new Promise<() => void>((resolve) => {
        hold = { method, held: resolve };
      }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe.skipIf(!tools.every(onPath) && process.env.CI !== 'true')(
  'custom domains through a real Caddy, certificates from a real ACME CA (pebble)',
  () => {
    let dns: TestDns;
    let caddy: Awaited<ReturnType<typeof startCaddy>>;
    let pebble: Pebble;
    let permission: Awaited<ReturnType<typeof permissionEndpoint>>;
    let upstream: http.Server;
    let ingress: Ingress;
    const customHosts = new Map<string, CustomHost[]>();
    const events: CertificateEvent[] = [];
    const backgroundErrors: string[] = [];
    let targets: { service: string; upstream: string; hostPort: number }[];
    let urls: Record<string, string>;
    const onDemandTls = (ca: Pebble) => ({
      permissionUrl: permission.url,
      acme: { directoryUrl: ca.directoryUrl, email: 'ops@slipway.test', caRootFile: ca.caRootFile },
    });
    const fromPebble = async (host: string, pathname = '/') =>
      requestThroughCaddy(`https://${host}:${caddy.httpsPort}${pathname}`, await pebble.issuingRoot());
    const serialOf = async (host: string) =>
      (await handshake(httpsAddressOf(caddy.adminUrl, caddy.httpsPort), host, 10_000)).serialNumber;

    beforeAll(async () => {
      [dns, caddy, permission] = await Promise.all([startTestDns(), startCaddy(), permissionEndpoint()]);
      pebble = await startPebble({
        dnsServer: dns.server,
        httpPort: caddy.httpPort,
        tlsPort: caddy.httpsPort,
      });
      upstream = http.createServer((_request, response) => response.end('the shop'));
      await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
      const port = (upstream.address() as AddressInfo).port;
      targets = [{ service: 'web', upstream: `127.0.0.1:${port}`, hostPort: port }];
      ingress = createCaddyIngress({
        adminUrl: caddy.adminUrl,
        publicDomain: undefined,
        httpsPort: caddy.httpsPort,
        customHosts: async (workspaceId) => customHosts.get(workspaceId) ?? [],
        onDemandTls: onDemandTls(pebble),
        retryDelayMs: 100,
        onError: (error, what) => backgroundErrors.push(`${what}: ${error}`),
      });
      ingress.onCertificateEvent((event) => events.push(event));
    }, 30_000);

    afterAll(async () => {
      await ingress?.close();
      await caddy?.stop();
      await pebble?.stop();
      await dns?.stop();
      await permission?.close();
      await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
    });

    it("serves a custom domain on its service's upstream with a certificate pebble issued on demand", async () => {
      await dns.addA(SHOP, ['127.0.0.1']);
      permission.allowed.add(SHOP);
      customHosts.set(W.id, [{ service: 'web', host: SHOP, redirectWww: false }]);
      urls = await ingress.publish(W, targets);

      // Node verifies the chain up to pebble's issuing root and the name.
      expect(await fromPebble(SHOP)).toMatchObject({ status: 200, body: 'the shop' });
      const served = await ingress.certificateFor(SHOP);
      expect(served.issuer).toMatch(/^Pebble Intermediate CA/);
      expect(served.names).toEqual([SHOP]);
      expect(served.notAfter.getTime()).toBeGreaterThan(Date.now());
      expect(permission.asked).toContain(SHOP);
      await until('the obtained event', () => events.some((e) => e.host === SHOP && e.kind === 'obtained'));
      // The own host is still on Caddy's internal CA: the on-demand policy only catches the other names.
      expect(await fetchThroughCaddy(urls.web!, caddy.rootCertificate())).toMatchObject({ body: 'the shop' });
    });

    it('orders nothing for a name the permission endpoint refuses, even a flood of random names', async () => {
      const orders = pebble.orderCount();
      await expect(ingress.certificateFor('stranger.example.test')).rejects.toThrow(
        /^TLS handshake for stranger\.example\.test failed: .*alert/,
      );
      expect(permission.asked).toContain('stranger.example.test');

      const flood = Array.from({ length: 50 }, () => `${randomBytes(6).toString('hex')}.flood.test`);
      const served = await Promise.allSettled(flood.map((name) => ingress.certificateFor(name)));
      expect(served.filter((result) => result.status === 'fulfilled')).toEqual([]);
      expect(flood.filter((name) => !permission.asked.includes(name))).toEqual([]);
      expect(pebble.orderCount()).toBe(orders);
    });

    it('redirects www and HTTP, and takes custom hosts off in one update', async () => {
      await dns.addA(`www.${SHOP}`, ['127.0.0.1']);
      permission.allowed.add(`www.${SHOP}`);
      const withWww = [{ service: 'web', host: SHOP, redirectWww: true }];
      customHosts.set(W.id, withWww);
      await ingress.setCustomHosts(W.id, withWww);

      expect(await fromPebble(`www.${SHOP}`, '/cart?item=1')).toMatchObject({
        status: 308,
        headers: { location: `https://${SHOP}:${caddy.httpsPort}/cart?item=1` },
      });
      // Caddy's HTTP port: to HTTPS (Caddy takes its https_port for the outside's 443).
      expect(await httpGet(caddy.httpPort, SHOP, '/cart')).toEqual({
        status: 308,
        location: `https://${SHOP}/cart`,
      });

      customHosts.set(W.id, []);
      await ingress.setCustomHosts(W.id, []);
      expect((await fromPebble(SHOP)).body).not.toBe('the shop');
      expect((await fromPebble(`www.${SHOP}`)).status).not.toBe(308);
      // The service itself is untouched.
      expect(await fetchThroughCaddy(urls.web!, caddy.rootCertificate())).toMatchObject({ body: 'the shop' });

      customHosts.set(W.id, [{ service: 'web', host: SHOP, redirectWww: false }]);
      await ingress.setCustomHosts(W.id, customHosts.get(W.id)!);
      expect(await fromPebble(SHOP)).toMatchObject({ status: 200, body: 'the shop' });
      const route = (await createCaddyAdmin({ adminUrl: caddy.adminUrl }).read(
        `/id/${workspaceRouteId(W.id)}`,
      )) as {
        match: { host: string[] }[];
      };
      expect(route.match[0]!.host.sort()).toEqual([SHOP, new URL(urls.web!).hostname].sort());
    });

    it('loses no deployment to a change of custom domains written on what it read before', async () => {
      // The change reads the route, then its write is held until a deployment has moved the service.
      const proxy = await holdingProxy(caddy.adminUrl);
      const viaProxy = createCaddyIngress({
        adminUrl: proxy.url,
        publicDomain: undefined,
        httpsPort: caddy.httpsPort,
        retryDelayMs: 10,
      });
      try {
        const held = proxy.holdNext('PATCH');
        const withWww = [{ service: 'web', host: SHOP, redirectWww: true }];
        customHosts.set(W.id, withWww);
        const changing = viaProxy.setCustomHosts(W.id, withWww);
        const release = await Promise.race([
          held,
          changing.then(() => Promise.reject(new Error('not held'))),
        ]);
        const dial = '127.0.0.1:19999'; // only the config is looked at: the new version need not answer
        await ingress.publish(W, [{ ...targets[0]!, upstream: dial }], urls);
        release();
        await changing;

        const route = (await createCaddyAdmin({ adminUrl: caddy.adminUrl }).read(
          `/id/${workspaceRouteId(W.id)}`,
        )) as {
          match: { host: string[] }[];
          handle: { routes: { handle: { upstreams?: unknown[] }[] }[] }[];
        };
        expect(route.handle[0]!.routes.flatMap((r) => r.handle[0]!.upstreams ?? [])).toEqual([{ dial }]);
        expect(route.match[0]!.host).toContain(`www.${SHOP}`);
      } finally {
        await proxy.close();
        customHosts.set(W.id, [{ service: 'web', host: SHOP, redirectWww: false }]);
        await ingress.publish(W, targets, urls);
      }
      expect(await fromPebble(SHOP)).toMatchObject({ status: 200, body: 'the shop' });
    });

    it('keeps a certificate across a Caddy restart: the same one, no new order, no question asked', async () => {
      const serial = await serialOf(SHOP);
      const orders = pebble.orderCount();
      await caddy.restartEmpty();
      expect(await ingress.missing([W.id])).toEqual([W.id]);
      const asked = permission.asked.length;

      // The restore is a publish: the custom domain rides along with no extra step.
      expect(await ingress.publish(W, targets, urls)).toEqual(urls);
      expect(await fromPebble(SHOP)).toMatchObject({ status: 200, body: 'the shop' });
      expect(await serialOf(SHOP)).toBe(serial);
      expect(pebble.orderCount()).toBe(orders);
      expect(permission.asked.slice(asked)).not.toContain(SHOP);
    });

    it("tells the CA's refusal in its words when it cannot reach the host, and what the CA is switched to", async () => {
      // A CA whose validation ports lead nowhere, as a firewall closing 80 and 443 would.
      const unreachable = await startPebble({
        dnsServer: dns.server,
        httpPort: await freePort(),
        tlsPort: await freePort(),
      });
      const switched = createCaddyIngress({
        adminUrl: caddy.adminUrl,
        publicDomain: undefined,
        httpsPort: caddy.httpsPort,
        customHosts: async () => [{ service: 'web', host: 'down.example.test', redirectWww: false }],
        onDemandTls: onDemandTls(unreachable),
        handshakeTimeoutMs: 1000,
      });
      try {
        await dns.addA('down.example.test', ['127.0.0.1']);
        permission.allowed.add('down.example.test');
        await switched.publish({ id: '00000000-0000-4000-8000-0000000000c2', name: 'down' }, targets);
        // Caddy holds the handshake while it tries; the answer comes through its log (restored after the restart).
        await switched.certificateFor('down.example.test').catch(() => {});
        await until('the failure event', () => events.some((e) => e.host === 'down.example.test'));
        const failure = events.find((e) => e.host === 'down.example.test');
        expect(failure).toMatchObject({ kind: 'failed', problem: 'connection' });
        expect(failure?.kind === 'failed' && failure.message).toMatch(/connection refused|Failed to connect/);
        expect(unreachable.orderCount()).toBeGreaterThan(0);
      } finally {
        await switched.close();
        // Back to the first CA before this one's files go: Caddy refuses every change while its config names a
        // root file that is gone.
        await ingress.publish(W, targets, urls);
        await unreachable.stop();
      }
      expect(backgroundErrors).toEqual([]);
    });

    it("brings an earlier Slipway's catch-all internal policy in line, after another's policy", async () => {
      const admin = createCaddyAdmin({ adminUrl: caddy.adminUrl });
      await admin.call('PATCH', '/config/apps/tls/automation/policies', [
        { '@id': 'slipway-internal-tls', issuers: [{ module: 'internal' }] },
        { '@id': 'theirs', subjects: ['admin.example.org'], issuers: [{ module: 'internal' }] },
      ]);
      await ingress.publish(W, targets, urls);
      const policies = (await admin.read('/config/apps/tls/automation/policies')) as {
        '@id': string;
        subjects: string[];
      }[];
      expect(policies.map((policy) => [policy['@id'], policy.subjects[0]])).toEqual([
        ['slipway-internal-tls', '*.localhost'],
        ['theirs', 'admin.example.org'],
        ['slipway-custom-domains-tls', '*.*'],
      ]);
      expect(await fromPebble(SHOP)).toMatchObject({ status: 200, body: 'the shop' });
      expect(await fetchThroughCaddy(urls.web!, caddy.rootCertificate())).toMatchObject({ body: 'the shop' });
    });

    it('takes its log out of Caddy when it closes', async () => {
      const admin = createCaddyAdmin({ adminUrl: caddy.adminUrl });
      const log = () => admin.read('/config/logging/logs/slipway-certificates');
      await until("Caddy's certificate log", async () => (await log()) !== null);
      await ingress.close();
      expect(await log()).toBeNull();
    });
  },
);
