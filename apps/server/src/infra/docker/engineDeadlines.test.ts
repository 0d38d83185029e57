import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineKey, withDeadlines } from './dockerode.js';
import { deadlineOf, EngineDeadlineError, isEngineDeadlineError } from './engineDeadlines.js';
import { unansweredOn } from './unansweredContainers.js';

const ID = 'c0ffee'.repeat(10).concat('c0ff');

describe('the deadline table', () => {
  const of = (
    method: string,
    apiPath: string,
    extra: { options?: Record<string, unknown>; isStream?: boolean } = {},
  ) => deadlineOf({ method, path: apiPath, ...extra });

  it('gives reads a short answer deadline and names the container in the sentence', () => {
    const inspect = of('GET', `/containers/${ID}/json?`);
    expect(inspect).toEqual({
      asked: `to inspect container ${ID.slice(0, 12)}`,
      deadline: { kind: 'answer', ms: 30_000 },
      containerId: ID,
    });
    expect(new EngineDeadlineError(inspect, 30_000, 'answer').message).toBe(
      `The Docker Engine did not answer within 30 s when asked to inspect container ${ID.slice(0, 12)}`,
    );
    expect(of('GET', '/containers/json?').deadline).toEqual({ kind: 'answer', ms: 30_000 });
  });

  it('gives stop its grace period and more, and never cuts a stream once started', () => {
    expect(of('POST', `/containers/${ID}/stop?`, { options: { t: 10 } }).deadline?.ms).toBe(40_000);
    expect(of('POST', `/containers/${ID}/stop?`).deadline?.ms).toBe(150_000);
    expect(
      of('GET', `/containers/${ID}/logs?`, { options: { follow: true }, isStream: true }).deadline,
    ).toEqual({
      kind: 'start',
      ms: 30_000,
    });
    expect(of('GET', `/containers/${ID}/logs?`, { options: { tail: 5 } }).deadline?.kind).toBe('answer');
    for (const [method, apiPath] of [
      ['POST', '/build?'],
      ['POST', '/images/create?'],
      ['POST', `/containers/${ID}/wait?`],
      ['POST', `/exec/${ID}/start`],
      ['GET', `/containers/${ID}/archive?`],
      ['PUT', `/containers/${ID}/archive?`],
    ] as const) {
      expect(of(method, apiPath, { isStream: true }).deadline, `${method} ${apiPath}`).toBeUndefined();
    }
    // Image names hold slashes and tags.
    expect(of('DELETE', '/images/local/debian:bookworm?').asked).toBe(
      'to remove image local/debian:bookworm',
    );
  });
});

/** A Docker Engine stand-in on a unix socket: answers some paths, holds others. */
describe('a client with deadlines', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'slipway-deadlines-'));
  const socketPath = path.join(dir, 'engine.sock');
  const held = new Set<http.ServerResponse>();
  let answerSlow = false;
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://engine');
    const route = `${request.method} ${url.pathname.replace(/^\/v[0-9.]+/, '')}`;
    if (route === 'GET /containers/fast/json' || (route === 'GET /containers/slow/json' && answerSlow)) {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"Id":"x"}');
    } else if (route === 'GET /containers/quiet/logs') {
      // Starts at once, then says something only after several deadlines have passed.
      response.writeHead(200, { 'content-type': 'application/vnd.docker.raw-stream' });
      response.write('first\n');
      setTimeout(() => response.end('late\n'), 1000);
    } else if (route === 'POST /containers/slow/wait') {
      setTimeout(() => response.writeHead(200).end('{"StatusCode":0}'), 1000);
    } else if (route === 'POST /containers/slow/stop') {
      setTimeout(() => response.writeHead(204).end(), 400);
    } else {
      held.add(response);
    }
  });
  // 30 s → 300 ms.
  const docker = withDeadlines(new Docker({ socketPath }), { scale: 0.01 });

  beforeAll(() => new Promise<void>((resolve) => server.listen(socketPath, resolve)));
  afterAll(async () => {
    for (const response of held) response.destroy();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails a call past its deadline with the sentence, and remembers the container until it answers', async () => {
    await expect(docker.getContainer('fast').inspect()).resolves.toEqual({ Id: 'x' });
    const started = Date.now();
    const error = await docker
      .getContainer('slow')
      .inspect()
      .catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(isEngineDeadlineError(error)).toBe(true);
    expect((error as Error).message).toBe(
      'The Docker Engine did not answer within 0.3 s when asked to inspect container slow',
    );
    expect(unansweredOn(engineKey(docker)).map((entry) => [entry.containerId, entry.sentence])).toEqual([
      ['slow', (error as Error).message],
    ]);
    answerSlow = true;
    await docker.getContainer('slow').inspect();
    expect(unansweredOn(engineKey(docker))).toEqual([]);
  });

  it('fails a stream that does not start in time, and never cuts one that started', async () => {
    const hanging = await docker
      .getContainer('hanging')
      .logs({ follow: true, stdout: true })
      .catch((e: unknown) => e);
    expect((hanging as Error).message).toBe(
      'The Docker Engine did not start answering within 0.3 s when asked for the logs of container hanging',
    );
    const stream = (await docker
      .getContainer('quiet')
      .logs({ follow: true, stdout: true })) as unknown as Readable;
    const chunks: string[] = [];
    for await (const chunk of stream) chunks.push(String(chunk));
    expect(chunks.join('')).toBe('first\nlate\n');
  });

  it('waits as long as `wait` takes, and gives `stop` its grace period', async () => {
    await expect(docker.getContainer('slow').wait()).resolves.toEqual({ StatusCode: 0 });
    // t = 0: the table's 30 s margin, scaled to 300 ms, shorter than the 400 ms the stop takes.
    await expect(docker.getContainer('slow').stop({ t: 0 })).rejects.toThrow(
      'when asked to stop container slow',
    );
    // t = 20: 50 s, scaled to 500 ms.
    await expect(docker.getContainer('slow').stop({ t: 20 })).resolves.toBeDefined();
  });

  it('still honours the caller’s own abort signal', async () => {
    const controller = new AbortController();
    const asked = docker.getContainer('held').inspect({ abortSignal: controller.signal });
    controller.abort();
    const error = await asked.catch((e: unknown) => e);
    expect(isEngineDeadlineError(error)).toBe(false);
    expect((error as Error).name).toBe('AbortError');
  });
});
