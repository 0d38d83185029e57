import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { probeServiceUrl } from './serviceProbe.js';

let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((_request, response) => response.writeHead(503).end('starting'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('reaches `*.localhost` names (Caddy local mode) on loopback, which the system resolver does not', async () => {
  expect(await probeServiceUrl(`http://web-shop.localhost:${port}/`)).toEqual({ ok: true });
  expect(await probeServiceUrl(`http://localhost:${port}/health`)).toEqual({ ok: true });
});

it('says why when nothing answers', async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const freePort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  expect(await probeServiceUrl(`http://web-shop.localhost:${freePort}/`)).toEqual({
    ok: false,
    reason: 'ECONNREFUSED',
  });
  expect(await probeServiceUrl('not a url')).toEqual({ ok: false, reason: 'the address is not a valid URL' });
});
