import { afterAll, beforeAll, expect, it } from 'vitest';
import { docker, TCP_STAND_INS } from '../test/deployments.js';
import { describeWith } from '../test/services.js';
import { tcpConnect } from '../vm-providers/local.js';
import { probePort } from './probe.js';

describeWith('docker')('probing a published port', () => {
  const started: string[] = [];
  const ports: Record<string, number> = {};

  beforeAll(async () => {
    const run = async (name: string, containerPort: number, cmd: string[]) => {
      const container = await docker.createContainer({
        Image: 'busybox:1.36',
        Cmd: cmd,
        Labels: { 'dev.slipway.test': 'port-probe' },
        ExposedPorts: { [`${containerPort}/tcp`]: {} },
        HostConfig: {
          Init: true,
          PortBindings: { [`${containerPort}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: '' }] },
        },
      });
      started.push(container.id);
      await container.start();
      const info = await container.inspect();
      ports[name] = Number(info.NetworkSettings.Ports[`${containerPort}/tcp`]?.[0]?.HostPort);
    };
    await run('web', 8080, [
      'sh',
      '-c',
      'mkdir -p /www && echo ok > /www/index.html && exec httpd -f -p 8080 -h /www',
    ]);
    await run('db', 5432, ['sh', '-c', TCP_STAND_INS.db]);
    await run('cache', 6379, ['sh', '-c', TCP_STAND_INS.cache]);
    // Published, but nothing listens inside: Docker's proxy accepts and hangs up.
    await run('nothing', 6000, ['sleep', '600']);
  });

  afterAll(async () => {
    for (const id of started)
      await docker
        .getContainer(id)
        .remove({ force: true })
        .catch(() => {});
  });

  const probe = (name: string) => probePort(() => tcpConnect('127.0.0.1', ports[name]!));

  /** A server may take a moment to listen after its container starts: wait for the expected answer. */
  async function settlesOn(name: string, expected: string) {
    const deadline = Date.now() + 10_000;
    let last = await probe(name);
    while (last !== expected && Date.now() < deadline) last = await probe(name);
    return last;
  }

  it('tells HTTP from TCP-only servers, and both from a port nothing listens on', async () => {
    expect(await settlesOn('web', 'http')).toBe('http');
    expect(await settlesOn('db', 'tcp')).toBe('tcp');
    expect(await settlesOn('cache', 'tcp')).toBe('tcp');
    expect(await probe('nothing')).toBe('closed');
    expect(await probePort(() => tcpConnect('127.0.0.1', 1))).toBe('closed');
  });
});
