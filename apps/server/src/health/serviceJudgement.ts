import type { ServiceStateName } from '@slipway/contract';
import type Docker from 'dockerode';
import { mayStillReportOom } from '../infra/docker/lateOom.js';
import type { ProbeResult } from './probe.js';
import type { ServiceRole } from './serviceRoles.js';

/** Why a service failed; each class has its own plain message. */
export type FailureKind =
  | 'exited'
  | 'oom_killed'
  | 'restarting'
  | 'unhealthy'
  | 'port_silent'
  | 'not_started';

export interface Judgement {
  state: ServiceStateName;
  /** `done`: healthy, running stably or completed; `wait`: not yet; `failed`: it will not get there. */
  verdict: 'done' | 'wait' | 'failed';
  exitCode: number | null;
  failure?: FailureKind;
}

export interface Observation {
  role: ServiceRole;
  /** Docker's inspect of the service's container; undefined while it does not exist yet. */
  info: Docker.ContainerInspectInfo | undefined;
  /** Docker reported an `oom` event for the container during the check. */
  oomKilled: boolean;
  /** RestartCount when the check began: a higher count means Docker restarted a crashed container. */
  baselineRestarts: number;
  /** Probe result of each published host port (only asked for when the container runs). */
  probes: ProbeResult[];
  now: number;
  stableMs: number;
}

const failed = (state: ServiceStateName, failure: FailureKind, exitCode: number | null): Judgement => ({
  state,
  verdict: 'failed',
  exitCode,
  failure,
});
const waiting: Judgement = { state: 'starting', verdict: 'wait', exitCode: null };

/** Milliseconds until a running container has been up for the stable window (0 when it has). */
export function stableIn(info: Docker.ContainerInspectInfo, now: number, stableMs: number): number {
  const started = Date.parse(info.State.StartedAt);
  return Number.isNaN(started) ? stableMs : Math.max(0, started + stableMs - now);
}

/**
 * The health model, one service at a time: a declared healthcheck decides through Docker's health status;
 * otherwise published ports must answer (HTTP or plain TCP); otherwise the container must run without
 * restarting for a short window. One-shot services succeed when they exit with 0.
 */
export function judgeService(observation: Observation): Judgement {
  const { role, info } = observation;
  if (!info) return waiting;
  const state = info.State;
  const exitCode = typeof state.ExitCode === 'number' ? state.ExitCode : null;
  if (state.OOMKilled || observation.oomKilled) return failed('oom_killed', 'oom_killed', exitCode);
  // Killed by SIGKILL a moment ago: the engine's `oom` event may still be on its way.
  if (mayStillReportOom(state, observation.now)) return waiting;
  if (state.Restarting || info.RestartCount > observation.baselineRestarts) {
    // Once Docker has started it again, the exit code of the crash is gone.
    return failed('restarting', 'restarting', state.Running ? null : exitCode);
  }
  if (!state.Running) {
    if (state.Status === 'created') return waiting;
    if (role.oneShot && exitCode === 0) return { state: 'completed', verdict: 'done', exitCode };
    return failed('exited', 'exited', exitCode);
  }
  const health = state.Health?.Status;
  if (role.healthcheck || health) {
    if (health === 'healthy') return { state: 'healthy', verdict: 'done', exitCode: null };
    if (health === 'unhealthy') return failed('unhealthy', 'unhealthy', null);
    return waiting;
  }
  if (role.publishedPorts.length > 0) {
    const answered = observation.probes.length > 0 && observation.probes.every((probe) => probe !== 'closed');
    return answered ? { state: 'healthy', verdict: 'done', exitCode: null } : waiting;
  }
  // A one-shot without ports or healthcheck is only done when it ends.
  if (role.oneShot) return { state: 'running', verdict: 'wait', exitCode: null };
  return stableIn(info, observation.now, observation.stableMs) === 0
    ? { state: 'running', verdict: 'done', exitCode: null }
    : { state: 'running', verdict: 'wait', exitCode: null };
}
