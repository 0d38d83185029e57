import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchSessionUser, SessionCheckError } from './sessionCheck';

/** A loopback server that drops the first `drops` connections without an answer, then answers `status`. */
async function flakyServer(drops: number, status: number, body: unknown) {
  let requests = 0;
  const server: Server = createServer((request, response) => {
    requests += 1;
    if (requests <= drops) {
      request.socket.destroy();
      return;
    }
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, server, requests: () => requests };
}

describe('the session check at start-up', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });
  const start = async (drops: number, status: number, body: unknown) => {
    const flaky = await flakyServer(drops, status, body);
    servers.push(flaky.server);
    return flaky;
  };

  it('asks again (twice at most) when the connection drops, then answers with the user', async () => {
    const flaky = await start(2, 200, { id: 1, login: 'octocat' });
    await expect(fetchSessionUser(flaky.origin)).resolves.toMatchObject({ login: 'octocat' });
    expect(flaky.requests()).toBe(3);

    const down = await start(5, 200, {});
    await expect(fetchSessionUser(down.origin)).rejects.toBeInstanceOf(TypeError);
    expect(down.requests()).toBe(3);
  });

  it('reads a 401 as a visitor, without asking again', async () => {
    const visitor = await start(0, 401, { error: 'Not authenticated' });
    await expect(fetchSessionUser(visitor.origin)).resolves.toBeNull();
    expect(visitor.requests()).toBe(1);
  });

  it("fails with the server's message on any other answer, without asking again", async () => {
    const broken = await start(0, 500, { error: 'Database unavailable' });
    const failure = fetchSessionUser(broken.origin);
    await expect(failure).rejects.toBeInstanceOf(SessionCheckError);
    await expect(failure).rejects.toMatchObject({ status: 500, serverMessage: 'Database unavailable' });
    expect(broken.requests()).toBe(1);
  });
});
