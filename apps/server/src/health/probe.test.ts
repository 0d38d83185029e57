import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { probeServiceUrl } from './probe.js';

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

it('keeps its connection from one probe to the next, and cuts a body that does not end', async () => {
  let connections = 0;
  let closed = 0;
  const streaming = http.createServer((request, response) => {
    response.writeHead(200);
    if (request.url === '/stream') {
      // A page that never ends (an event stream): answering is enough, the probe must not hang on it.
      const tick = setInterval(() => response.write('data: tick\n\n'), 50);
      response.once('close', () => clearInterval(tick));
    } else response.end('ok');
  });
  streaming.on('connection', (socket) => {
    connections++;
    socket.once('close', () => closed++);
  });
  await new Promise<void>((resolve) => streaming.listen(0, '127.0.0.1', resolve));
  const { port: streamingPort } = streaming.address() as AddressInfo;
  try {
    for (let i = 0; i < 3; i++) {
      expect(await probeServiceUrl(`http://web-kept.localhost:${streamingPort}/`)).toEqual({ ok: true });
    }
    expect(connections).toBe(1);
    expect(await probeServiceUrl(`http://web-kept.localhost:${streamingPort}/stream`)).toEqual({ ok: true });
    await expect.poll(() => closed, { timeout: 5000 }).toBe(1);
  } finally {
    streaming.closeAllConnections();
    await new Promise<void>((resolve) => streaming.close(() => resolve()));
  }
});
