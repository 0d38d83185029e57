import { describe, expect, it } from 'vitest';
import { type DeploymentResult, failureReport } from './deploymentReport.js';

const failed = (over: Partial<DeploymentResult>): DeploymentResult => ({
  workspace: 'shop',
  session_id: 's',
  deployment_id: 'd1',
  state: 'failed',
  error: "The build step failed for service 'web'",
  urls: {},
  failure: null,
  build_log: [],
  ...over,
});

const job = (containerLogs: Record<string, string>) => ({
  id: 'd1',
  status: 'failed' as const,
  workspace_name: 'shop',
  branch: 'main',
  commit_sha: null,
  health_check_failed: false,
  failed_services: [],
  container_logs: containerLogs,
  failure_reason: null,
  port_discovery_failed: false,
  expected_services: ['web'],
  service_urls: {},
  service_states: [],
  error: null,
});

describe('the failure report', () => {
  it('shows the build log’s last lines when no service printed anything, as plain text', () => {
    const lines = failureReport(
      failed({
        failure: job({}),
        build_log: ['web | compiling', 'web | \x1b[91merror: no such file\x1b[0m'],
      }),
    );
    expect(lines).toEqual([
      "Deployment d1 of shop failed: The build step failed for service 'web'",
      '--- last lines of the build log ---',
      'web | compiling',
      'web | error: no such file',
    ]);
  });

  it('shows the services’ last lines instead when they printed some', () => {
    const lines = failureReport(
      failed({ failure: job({ web: 'cannot reach the database\n' }), build_log: ['Building web'] }),
    );
    expect(lines).toContain('cannot reach the database');
    expect(lines).not.toContain('Building web');
  });
});
