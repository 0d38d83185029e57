import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { LABELS } from '../infra/docker/conventions.js';
import type { ContainerSummary } from '../workspaces/workspaceDocker.js';
import { findFailures, RESTART_WINDOW_MS } from './healthChecks.js';
import { createRestartCount, type RestartCount } from './restartCount.js';

/**
 * The sequences a busy engine produces, fed to the counting and the check the health monitor runs. The engine
 * is a stand-in that answers `inspect` as the real one does around a death with `restart: always` (seen with
 * `docker inspect` in a loop): from the death until the restart, `Restarting` and `Running` both true and the
 * restart counter already raised. A real engine is in that state for 100 ms, longer when busy, which no test
 * can hold it in; `crashAlerts.test.ts` runs the whole path on the real one.
 */
const api = {
  Id: 'c0ffee',
  Names: ['/slipway-ws-api-1'],
  Labels: { [LABELS.composeService]: 'api' },
} as unknown as ContainerSummary;

const T0 = Date.parse('2026-11-27T12:00:00Z');
const at = (ms: number) => new Date(T0 + ms);

type Seen = { running: boolean; restarting: boolean; restartCount: number };
const restarting = (restartCount: number): Seen => ({ running: true, restarting: true, restartCount });
const running = (restartCount: number): Seen => ({ running: true, restarting: false, restartCount });

function engineShowing(seen: Seen) {
  const info = {
    RestartCount: seen.restartCount,
    State: {
      Running: seen.running,
      Restarting: seen.restarting,
      ExitCode: 3,
      OOMKilled: false,
      StartedAt: at(-60_000).toISOString(),
      FinishedAt: at(0).toISOString(),
    },
  };
  return async () => info as unknown as Docker.ContainerInspectInfo;
}

/** The alerts a check finds at `now` (ms after T0) with the engine showing `seen`. */
async function check(count: RestartCount, seen: Seen, now: number) {
  const failures = await findFailures(engineShowing(seen), [api], {}, (container, restartCount) =>
    count.inWindow(container.Id, restartCount, T0 + now),
  );
  return [...failures.values()].map((failure) => failure.alertType);
}

describe('counting the deaths of a container', () => {
  it('one crash inspected while the engine waits to restart it is a crash, not a restart loop', async () => {
    const count = createRestartCount();
    expect(await check(count, running(0), -1000)).toEqual([]);
    expect(count.died(api.Id, at(0), T0 + 5)).toBe(1);
    expect(await check(count, restarting(1), 300)).toEqual(['container_crashed']);
    expect(await check(count, running(1), 1300)).toEqual([]);
  });

  it('is a crash when the check sees the death before its event, and before any earlier reading', async () => {
    const count = createRestartCount();
    expect(await check(count, restarting(1), 300)).toEqual(['container_crashed']);
    expect(count.died(api.Id, at(0), T0 + 900)).toBe(1);
    expect(await check(count, running(1), 1300)).toEqual([]);
  });

  it('counts a death once when its event comes again after a reconnect', async () => {
    const count = createRestartCount();
    expect(count.died(api.Id, at(0), T0 + 5)).toBe(1);
    expect(count.died(api.Id, at(0), T0 + 2500)).toBe(1);
    expect(await check(count, restarting(1), 2600)).toEqual(['container_crashed']);
  });

  it('makes three crashes within the window a restart loop, from the events or from the counter alone', async () => {
    const count = createRestartCount();
    // Three deaths whose events arrive together: each crash report counts the deaths up to its own.
    expect([0, 400, 1200].map((ms) => count.died(api.Id, at(ms), T0 + 1300))).toEqual([1, 2, 3]);
    expect(await check(count, restarting(3), 1300)).toEqual(['restart_loop']);
    expect(await check(count, running(3), 5000)).toEqual(['restart_loop']);

    // The engine restarted and its events were lost: its counter rose by three since the last reading.
    const counter = createRestartCount();
    expect(await check(counter, running(7), 0)).toEqual([]);
    expect(await check(counter, running(9), 60_000)).toEqual([]);
    expect(await check(counter, restarting(10), 120_000)).toEqual(['restart_loop']);
  });

  it('forgets deaths older than the window', async () => {
    const count = createRestartCount();
    count.died(api.Id, at(0), T0);
    count.died(api.Id, at(1000), T0 + 1000);
    expect(count.died(api.Id, at(RESTART_WINDOW_MS + 500), T0 + RESTART_WINDOW_MS + 500)).toBe(2);
    count.forgetOld(T0 + 3 * RESTART_WINDOW_MS);
    expect(await check(count, running(3), 3 * RESTART_WINDOW_MS)).toEqual([]);
  });
});
