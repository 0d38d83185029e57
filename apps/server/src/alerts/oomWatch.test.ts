import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { createOomWatch } from './oomWatch.js';

const LATE_MS = 400;
const sigkill = (at = new Date()) => ({ at, exitCode: 137, flagged: false });

describe('which deaths were OOM kills', () => {
  it('takes the engine flag or an `oom` event sent before the death', async () => {
    const watch = createOomWatch(LATE_MS);
    expect(await watch.killedForMemory('a', { ...sigkill(), flagged: true })).toBe(true);
    watch.sawOom('b', new Date(Date.now() - 50));
    expect(await watch.killedForMemory('b', sigkill())).toBe(true);
  });

  it('waits for the `oom` event of a SIGKILL nobody asked for, which can come after the death', async () => {
    const watch = createOomWatch(LATE_MS);
    const died = new Date();
    const verdict = watch.killedForMemory('c', sigkill(died));
    watch.sawOom('c', new Date(died.getTime() + 100));
    expect(await verdict).toBe(true);

    // None came: a plain SIGKILL, decided once the allowance is over.
    const started = Date.now();
    expect(await watch.killedForMemory('d', sigkill())).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(LATE_MS - 20);
  });

  it('waits from when a late-delivered death was heard: a busy engine delivers its `oom` event as late', async () => {
    const watch = createOomWatch(LATE_MS);
    // The death is stamped long before Slipway hears of it; its `oom` event, stamped just after, comes later still.
    const died = new Date(Date.now() - 5 * LATE_MS);
    const verdict = watch.killedForMemory('h', { ...sigkill(died), heardAt: Date.now() });
    setTimeout(() => watch.sawOom('h', new Date(died.getTime() + 500)), LATE_MS / 2);
    expect(await verdict).toBe(true);
  });

  it('does not wait for a `docker kill`, another exit code or an old death', async () => {
    const watch = createOomWatch(60_000);
    const died = new Date();
    watch.sawKill('e', new Date(died.getTime() - 5));
    expect(await watch.killedForMemory('e', sigkill(died))).toBe(false);
    expect(await watch.killedForMemory('f', { at: died, exitCode: 1, flagged: false })).toBe(false);
    expect(await watch.killedForMemory('g', sigkill(new Date(Date.now() - 61_000)))).toBe(false);
  });

  it('marks a dead container inspected by a check as OOM-killed when its late event came', async () => {
    const watch = createOomWatch(LATE_MS);
    const finishedAt = new Date();
    const info = {
      Id: 'h',
      State: {
        Running: false,
        Restarting: false,
        OOMKilled: false,
        ExitCode: 137,
        FinishedAt: finishedAt.toISOString(),
      },
    } as Docker.ContainerInspectInfo;
    const judged = watch.withOomFlag(info);
    watch.sawOom('h', new Date(finishedAt.getTime() + 30));
    expect((await judged).State.OOMKilled).toBe(true);
    const running = { ...info, Id: 'i', State: { ...info.State, Running: true } };
    expect(await watch.withOomFlag(running)).toBe(running);
  });
});
