import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CheckTimeoutError, runCheckInWorker } from './checkWorkerPool.js';

const repo = mkdtempSync(path.join(tmpdir(), 'slipway-worker-'));
writeFileSync(path.join(repo, 'compose.yaml'), 'services:\n  web:\n    image: busybox:1.36\n');
// Within every limit, but real work: 90 services of 100 variables each take tens of milliseconds to check.
const environment = Array.from({ length: 100 }, (_, i) => `      V${i}: value-${i}`).join('\n');
const services = Array.from(
  { length: 90 },
  (_, i) => `  s${i}:\n    image: busybox:1.36\n    environment:\n${environment}`,
).join('\n');
writeFileSync(path.join(repo, 'large.yaml'), `services:\n${services}\n`);
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('the compose check worker', () => {
  it('runs checks off the event loop, the event loop staying free meanwhile', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const result = await runCheckInWorker({ kind: 'read', repoDir: repo, fileName: 'compose.yaml', env: {} });
    clearInterval(timer);
    expect(result).toEqual({
      kind: 'read',
      violations: [],
      project: { services: { web: { image: 'busybox:1.36' } } },
      materials: [],
    });
    expect(ticks).toBeGreaterThan(0);
  });

  it('refuses a check that passes its time limit, and the next check still runs', async () => {
    // The limit counts the check's own work, not the worker's start-up.
    await expect(
      runCheckInWorker({ kind: 'read', repoDir: repo, fileName: 'large.yaml', env: {} }),
    ).resolves.toMatchObject({
      kind: 'read',
    });
    await expect(
      runCheckInWorker({ kind: 'read', repoDir: repo, fileName: 'large.yaml', env: {} }, 1),
    ).rejects.toBeInstanceOf(CheckTimeoutError);
    await expect(
      runCheckInWorker({ kind: 'read', repoDir: repo, fileName: 'compose.yaml', env: {} }),
    ).resolves.toMatchObject({ kind: 'read' });
  });
});
