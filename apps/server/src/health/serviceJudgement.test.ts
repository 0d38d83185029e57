import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { stringifyCompose } from '../infra/compose/composeProject.js';
import { classifyBuildError, classifyComposeFailure } from '../rollout/compose/composeFailures.js';
import { applyRuntimePlan } from '../rollout/compose/runtimePlan.js';
import { summarizeLog } from './failureReport.js';
import { judgeService, type Observation } from './serviceJudgement.js';
import { type ServiceRole, serviceRoles } from './serviceRoles.js';

const role = (patch: Partial<ServiceRole> = {}): ServiceRole => ({
  name: 'svc',
  publishedPorts: [],
  oneShot: false,
  healthcheck: false,
  restart: undefined,
  ...patch,
});

const NOW = Date.parse('2026-01-01T00:00:10Z');

function container(state: Partial<Docker.ContainerInspectInfo['State']>, restarts = 0) {
  return {
    Id: 'c1',
    RestartCount: restarts,
    State: {
      Status: 'running',
      Running: true,
      Restarting: false,
      OOMKilled: false,
      ExitCode: 0,
      StartedAt: '2026-01-01T00:00:00Z',
      ...state,
    },
  } as unknown as Docker.ContainerInspectInfo;
}

const observe = (patch: Partial<Observation>): Observation => ({
  role: role(),
  info: container({}),
  oomKilled: false,
  baselineRestarts: 0,
  probes: [],
  now: NOW,
  stableMs: 3_000,
  ...patch,
});

describe('the health model of one service', () => {
  it('counts a one-shot that exits 0 as completed, any other exit as exited with its code', () => {
    const exited = (code: number) => container({ Status: 'exited', Running: false, ExitCode: code });
    expect(judgeService(observe({ role: role({ oneShot: true }), info: exited(0) }))).toMatchObject({
      state: 'completed',
      verdict: 'done',
      exitCode: 0,
    });
    expect(judgeService(observe({ role: role({ oneShot: true }), info: exited(4) }))).toMatchObject({
      state: 'exited',
      verdict: 'failed',
      exitCode: 4,
    });
    // A long-running service that ends has failed, even with 0.
    expect(judgeService(observe({ info: exited(0) })).verdict).toBe('failed');
    // A one-shot still at work is waited for.
    expect(judgeService(observe({ role: role({ oneShot: true }) })).verdict).toBe('wait');
  });

  it('follows Docker health status when there is a healthcheck', () => {
    const withHealth = (Status: string) => container({ Health: { Status } as never });
    const r = role({ healthcheck: true, publishedPorts: [80] });
    expect(judgeService(observe({ role: r, info: withHealth('starting') })).verdict).toBe('wait');
    expect(judgeService(observe({ role: r, info: withHealth('healthy') })).state).toBe('healthy');
    expect(judgeService(observe({ role: r, info: withHealth('unhealthy') }))).toMatchObject({
      verdict: 'failed',
      failure: 'unhealthy',
    });
  });

  it('needs every published port to answer, over HTTP or plain TCP', () => {
    const r = role({ publishedPorts: [5432, 8080] });
    expect(judgeService(observe({ role: r, probes: ['tcp', 'http'] })).state).toBe('healthy');
    expect(judgeService(observe({ role: r, probes: ['tcp', 'closed'] })).verdict).toBe('wait');
    expect(judgeService(observe({ role: r, probes: [] })).verdict).toBe('wait');
  });

  it('counts a service without ports as running once it has run the stable window without a restart', () => {
    expect(judgeService(observe({ stableMs: 3_000 }))).toMatchObject({ state: 'running', verdict: 'done' });
    expect(judgeService(observe({ stableMs: 60_000 })).verdict).toBe('wait');
    expect(judgeService(observe({ info: container({}, 1) }))).toMatchObject({
      state: 'restarting',
      verdict: 'failed',
    });
  });

  it('reports a memory kill as such, even after Docker restarted the container', () => {
    expect(judgeService(observe({ info: container({ OOMKilled: true, Running: false }) })).state).toBe(
      'oom_killed',
    );
    expect(judgeService(observe({ oomKilled: true, info: container({}, 1) })).state).toBe('oom_killed');
  });

  it('waits a moment for the `oom` event of a SIGKILL death before calling it an exit', () => {
    const killed = (finishedAt: string) =>
      container({ Status: 'exited', Running: false, ExitCode: 137, FinishedAt: finishedAt });
    // Killed 1 s ago: the engine may still report it as an OOM kill.
    expect(judgeService(observe({ info: killed('2026-01-01T00:00:09Z') })).verdict).toBe('wait');
    expect(judgeService(observe({ info: killed('2026-01-01T00:00:09Z'), oomKilled: true })).state).toBe(
      'oom_killed',
    );
    // Killed 5 s ago without an `oom` event: an exit by SIGKILL.
    expect(judgeService(observe({ info: killed('2026-01-01T00:00:05Z') }))).toMatchObject({
      state: 'exited',
      exitCode: 137,
    });
    // Any other exit code is judged at once.
    const crashed = container({
      Status: 'exited',
      Running: false,
      ExitCode: 1,
      FinishedAt: '2026-01-01T00:00:09Z',
    });
    expect(judgeService(observe({ info: crashed })).verdict).toBe('failed');
  });
});

describe('service roles and the runtime plan', () => {
  const normalized = {
    services: {
      web: {
        ports: ['8080:80/tcp', { target: 443, protocol: 'tcp' }, '53/udp'],
        depends_on: {
          migrate: { condition: 'service_completed_successfully' },
        },
      },
      migrate: {},
      seed: { restart: 'no' },
      retry: { restart: 'on-failure:3' },
      internal: { expose: ['9000'] },
      checked: { healthcheck: { test: ['CMD', 'true'] } },
      unchecked: { healthcheck: { test: ['NONE'] } },
    },
  };
  const names = Object.keys(normalized.services).map((name) => ({
    name,
    inactive: false,
    hasBuild: false,
    image: 'busybox:1.36',
    declaredPorts: name === 'internal' ? [9000] : [],
  }));
  const roles = Object.fromEntries(
    serviceRoles(normalized, names, { dockerfileOnly: false }).map((r) => [r.name, r]),
  );

  it('publishes only `ports:` (TCP), and knows one-shot and healthcheck services', () => {
    expect(roles.web).toMatchObject({ publishedPorts: [80, 443], oneShot: false });
    expect(roles.internal?.publishedPorts).toEqual([]);
    expect(roles.migrate?.oneShot).toBe(true);
    expect(roles.seed?.oneShot).toBe(true);
    expect(roles.retry?.oneShot).toBe(true);
    expect(roles.checked?.healthcheck).toBe(true);
    expect(roles.unchecked?.healthcheck).toBe(false);
  });

  it('binds fixed host ports on the private address and keeps "no" a string for YAML 1.1 readers', () => {
    const finalized = {
      services: Object.fromEntries(
        Object.keys(normalized.services).map((name) => [
          name,
          { restart: name === 'seed' ? 'no' : 'unless-stopped' },
        ]),
      ),
    };
    const plan = applyRuntimePlan(finalized, {
      roles: Object.values(roles),
      hostPorts: { web: { '80': 21000, '443': 21001 } },
      publishAddress: '127.0.0.1',
    });
    const text = stringifyCompose(plan);
    expect(text).toContain('- 127.0.0.1:21000:80/tcp');
    expect(text).toContain('- 127.0.0.1:21001:443/tcp');
    expect(text).toMatch(/seed:\n\s+restart: "no"/);
    // Awaited without a policy of its own: it must not be restarted after it completes.
    expect(text).toMatch(/migrate:\n\s+restart: "no"/);
    expect(text).toMatch(/web:\n\s+restart: unless-stopped/);
    expect(text).toMatch(/retry:\n\s+restart: on-failure:3/);
    expect(text).not.toMatch(/internal:\n\s+restart: unless-stopped\n\s+ports/);
  });
});

describe('failure reports', () => {
  it('shows the first error lines before the last lines', () => {
    const log = ['boot', 'Error: config missing', ...Array.from({ length: 30 }, (_, i) => `line ${i}`)].join(
      '\n',
    );
    const summary = summarizeLog(log);
    expect(summary.startsWith('First errors:\nError: config missing\n\nLast lines:\nline 10')).toBe(true);
    expect(summary.endsWith('line 29')).toBe(true);
    expect(summarizeLog('')).toBe('(no output)');
  });

  it("names an engine build's failure in the same words as Compose's", () => {
    expect(
      classifyBuildError(
        'web',
        "pull access denied for nosuch/image, repository does not exist or may require 'docker login': denied",
      ),
    ).toMatch(/^Image 'nosuch\/image' was not found or could not be pulled/);
    expect(classifyBuildError('web', "The command '/bin/sh -c make' returned a non-zero code: 2")).toBe(
      "The build step failed for service 'web': The command '/bin/sh -c make' returned a non-zero code: 2",
    );
  });

  it('names the class of a Compose failure in plain words', () => {
    expect(
      classifyComposeFailure(
        'ERROR: pull access denied for nosuch/image, repository does not exist or may require docker login',
        'up',
      ),
    ).toMatch(/^Image 'nosuch\/image' was not found or could not be pulled/);
    expect(
      classifyComposeFailure(
        "Step 3/4 : RUN make\nThe command '/bin/sh -c make' returned a non-zero code: 2\nERROR: Service 'web' failed to build : Build failed",
        'build',
      ),
    ).toBe(
      "The build step failed for service 'web': The command '/bin/sh -c make' returned a non-zero code: 2",
    );
    // The project file refused by the CLI itself (Compose v1's words, then v2's), whichever command read it.
    expect(
      classifyComposeFailure(
        "Creating network \"x_default\"\nERROR: The Compose file './slipway.compose.yml' is invalid because:\nUnsupported config option for services.web: 'foo'\n",
        'build',
      ),
    ).toBe("The compose file is not valid: Unsupported config option for services.web: 'foo'");
    expect(
      classifyComposeFailure(
        'ERROR: Error while attempting to convert service.web.ports.published to appropriate type: "x" is not a valid integer',
        'up',
      ),
    ).toBe(
      'The compose file is not valid: Error while attempting to convert service.web.ports.published to appropriate type: "x" is not a valid integer',
    );
    expect(
      classifyComposeFailure(
        "validating /w/slipway.compose.yml: services.web additional properties 'foo' not allowed",
        'up',
      ),
    ).toBe(
      "The compose file is not valid: validating /w/slipway.compose.yml: services.web additional properties 'foo' not allowed",
    );
  });
});
