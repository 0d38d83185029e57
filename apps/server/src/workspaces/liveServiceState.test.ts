import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { liveServiceState } from './liveServiceState.js';

/** An inspect result with just the fields the state reads. */
const inspect = (state: Partial<Docker.ContainerInspectInfo['State']>, restart = 'unless-stopped') =>
  ({
    State: { Status: 'running', Running: true, Restarting: false, OOMKilled: false, ExitCode: 0, ...state },
    HostConfig: { RestartPolicy: { Name: restart } },
  }) as unknown as Docker.ContainerInspectInfo;

describe('a service’s live state', () => {
  it('names each state the dashboard shows', () => {
    expect(liveServiceState(inspect({}))).toEqual({ state: 'running', exit_code: null });
    expect(liveServiceState(inspect({ Health: { Status: 'healthy' } } as never))).toEqual({
      state: 'healthy',
      exit_code: null,
    });
    expect(liveServiceState(inspect({ Health: { Status: 'starting' } } as never)).state).toBe('starting');
    expect(liveServiceState(inspect({ Health: { Status: 'unhealthy' } } as never)).state).toBe('unhealthy');
    expect(liveServiceState(inspect({ Restarting: true, ExitCode: 3 }))).toEqual({
      state: 'restarting',
      exit_code: 3,
    });
    expect(
      liveServiceState(inspect({ Running: false, Status: 'exited', OOMKilled: true, ExitCode: 137 })),
    ).toEqual({ state: 'oom_killed', exit_code: 137 });
    expect(liveServiceState(inspect({ Running: false, Status: 'exited', ExitCode: 2 }))).toEqual({
      state: 'exited',
      exit_code: 2,
    });
    expect(liveServiceState(inspect({ Running: false, Status: 'created' })).state).toBe('starting');
  });

  it('calls a one-shot that ended with 0 completed, but not a long-running service that was stopped', () => {
    expect(liveServiceState(inspect({ Running: false, Status: 'exited', ExitCode: 0 }, 'no'))).toEqual({
      state: 'completed',
      exit_code: 0,
    });
    expect(
      liveServiceState(inspect({ Running: false, Status: 'exited', ExitCode: 0 }, 'on-failure')).state,
    ).toBe('completed');
    expect(liveServiceState(inspect({ Running: false, Status: 'exited', ExitCode: 0 }))).toEqual({
      state: 'exited',
      exit_code: 0,
    });
  });
});
