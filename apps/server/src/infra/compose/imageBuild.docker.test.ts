import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../test/runningWorkspaces.js';
import { describeWith } from '../../test/services.js';
import { ImageBuildError } from './buildOutput.js';
import { buildImage, buildParameters, bytesOf } from './imageBuild.js';

describe("a build section's engine parameters", () => {
  it('passes what Compose v1 passes: args and labels as maps, sizes in bytes, hosts as host:address', () => {
    expect(
      buildParameters(
        {
          context: '/repo',
          args: ['GREETING=hi', 'FROM_ENV', 'EMPTY='],
          labels: { team: 'web', build: 3 },
          target: 'runtime',
          network: 'none',
          shm_size: '64m',
          extra_hosts: { db: '10.0.0.2' },
          cache_from: ['slipway-x-web:1'],
        },
        'slipway-x-web:2',
        'Dockerfile',
      ),
    ).toEqual({
      t: 'slipway-x-web:2',
      dockerfile: 'Dockerfile',
      rm: true,
      forcerm: true,
      buildargs: JSON.stringify({ GREETING: 'hi', EMPTY: '' }),
      labels: JSON.stringify({ team: 'web', build: '3' }),
      cachefrom: ['slipway-x-web:1'],
      target: 'runtime',
      networkmode: 'none',
      shmsize: 64 * 1024 * 1024,
      extrahosts: ['db:10.0.0.2'],
    });
    expect([bytesOf('1gb'), bytesOf(2048), bytesOf('512k'), bytesOf('lots')]).toEqual([
      1024 ** 3,
      2048,
      512 * 1024,
      undefined,
    ]);
  });
});

describeWith('docker')('building an image through the engine', () => {
  const docker = new Docker({ socketPath: '/var/run/docker.sock' });
  const nonce = randomUUID();
  const repo = mkdtempSync(path.join(tmpdir(), 'slipway-image-build-'));
  const tags: string[] = [];
  const tag = (name: string) => {
    const full = `slipway-test-${nonce}-${name}:1`;
    tags.push(full);
    return full;
  };

  afterAll(async () => {
    for (const name of tags)
      await docker
        .getImage(name)
        .remove({ force: true })
        .catch(() => undefined);
    rmSync(repo, { recursive: true, force: true });
  });

  const write = (file: string, content: string) => {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), content);
  };

  /** Runs `command` in a container of `image` and returns what it printed. */
  async function runIn(image: string, command: string[]): Promise<string> {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const [result, container] = await docker.run(image, command, out, { Tty: true });
    await container.remove();
    expect(result.StatusCode).toBe(0);
    return Buffer.concat(chunks).toString();
  }

  it('builds the target stage with the args and labels, from the context the patterns leave', async () => {
    write(
      'app/Dockerfile',
      `FROM busybox:1.36 AS base\nARG GREETING=unset\nRUN echo "$GREETING ${nonce}" > /greeting\nCOPY . /ctx\n` +
        'FROM base AS never\nRUN exit 3\n',
    );
    write('app/.dockerignore', 'secret.txt\n');
    write('app/secret.txt', 'not for the image');
    write('app/index.html', 'hello');
    const name = tag('app');
    const lines: string[] = [];
    await buildImage(
      docker,
      {
        build: {
          context: path.join(repo, 'app'),
          args: { GREETING: 'hi' },
          labels: { 'com.example.team': 'web' },
          target: 'base',
        },
        tag: name,
      },
      { onLine: (line) => lines.push(line), signal: AbortSignal.timeout(120_000) },
    );
    expect(lines).toContain(`Successfully tagged ${name}`);
    expect(lines.some((line) => /^ ---> [0-9a-f]{12}$/.test(line))).toBe(true);
    const image = await docker.getImage(name).inspect();
    expect(image.Config.Labels).toMatchObject({ 'com.example.team': 'web' });
    const printed = await runIn(name, ['sh', '-c', 'cat /greeting; ls /ctx']);
    expect(printed).toContain(`hi ${nonce}`);
    expect(printed).toContain('index.html');
    expect(printed).not.toContain('secret.txt');
  });

  it('says which step failed and how, and leaves no container of it', async () => {
    write('broken/Dockerfile', `FROM busybox:1.36\nRUN echo failing-${nonce} && exit 7\n`);
    const failing = buildImage(
      docker,
      { build: { context: path.join(repo, 'broken') }, tag: tag('broken') },
      { onLine: () => undefined, signal: AbortSignal.timeout(120_000) },
    );
    await expect(failing).rejects.toThrow(ImageBuildError);
    await expect(failing).rejects.toThrow(
      `The command '/bin/sh -c echo failing-${nonce} && exit 7' returned a non-zero code: 7`,
    );
    const left = await docker.listContainers({ all: true });
    expect(left.filter((container) => container.Command.includes(`failing-${nonce}`))).toEqual([]);
  });

  it('cuts a step that prints without ending its line into lines, never holding it whole', async () => {
    write(
      'endless/Dockerfile',
      `FROM busybox:1.36\nRUN echo ${nonce} && head -c 1000000 /dev/zero | tr '\\0' a\n`,
    );
    const lines: string[] = [];
    await buildImage(
      docker,
      { build: { context: path.join(repo, 'endless') }, tag: tag('endless') },
      { onLine: (line) => lines.push(line), signal: AbortSignal.timeout(120_000) },
    );
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(16 * 1024);
    // Every byte is there: the pieces after the line `echo` printed (a nonce can start with an "a": counting
    // the a's that start any line once made 1000001), the last one running on into the builder's next line
    // as the docker CLI shows it.
    const echoed = lines.indexOf(nonce);
    expect(echoed).toBeGreaterThan(0);
    const printed = lines.slice(echoed + 1).join('');
    expect(/^a*/.exec(printed)![0].length).toBe(1_000_000);
  });

  it('stops when its signal aborts, and the engine ends the step that was running', async () => {
    write('slow/Dockerfile', `FROM busybox:1.36\nRUN echo slow-${nonce} && sleep 600\n`);
    const controller = new AbortController();
    const building = buildImage(
      docker,
      { build: { context: path.join(repo, 'slow') }, tag: tag('slow') },
      {
        onLine: (line) => {
          if (line.includes('Running in')) controller.abort();
        },
        signal: controller.signal,
      },
    );
    await expect(building).rejects.toThrow();
    // The engine removes the step's container once it sees the client go.
    const stepContainers = async () =>
      (await docker.listContainers({ all: true })).filter((c) => c.Command.includes(`slow-${nonce}`));
    await waitUntil(async () => (await stepContainers()).length === 0, 30_000, "the step's container to go");
  });
});
