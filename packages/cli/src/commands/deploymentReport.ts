import { type DeployJobMetadata, parseLogStreamLine } from '@slipway/contract';
import { CliError, EXIT } from '../cliErrors.js';
import { printable, table } from '../output.js';
import type { CommandContext } from './commandContext.js';

/** How many of a service's, or the build's, last lines a failure report shows. */
export const REPORT_LOG_LINES = 20;

/** `deploy --json` and `rollback --json` print this (rollback adds `rollback_of`). */
export interface DeploymentResult {
  workspace: string;
  session_id: string;
  deployment_id: string;
  state: 'completed' | 'failed';
  error: string | null;
  /** Service name → public URL. */
  urls: Record<string, string>;
  /** GET /api/deployment/job/{id} when it failed: reason, failed services, their states and last log lines. */
  failure: DeployJobMetadata | null;
  /** The last lines of the deployment's build log when it failed (what the build printed), else empty. */
  build_log: string[];
}

/**
 * The last lines of the workspace's latest build log (`GET /api/logs/{owner}/{repo}/stream?log_type=build`, the
 * history only). The route serves the newest deployment of the workspace: the one just followed, as one
 * deployment of a workspace runs at a time. A log that cannot be read leaves the report without it, saying so.
 */
export async function buildLogTail(
  ctx: CommandContext,
  repository: () => Promise<{ owner: string; repo: string }>,
): Promise<string[]> {
  const lines: string[] = [];
  try {
    const events = ctx.client.stream('deploymentLogStream', {
      params: await repository(),
      query: { log_type: 'build', initial_lines: REPORT_LOG_LINES, follow: 'false' },
    });
    for await (const data of events) {
      const line = parseLogStreamLine(data);
      if (line) lines.push(line.log);
    }
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    ctx.output.note(`(The build log could not be read: ${error.message})`);
  }
  return lines.slice(-REPORT_LOG_LINES);
}

/**
 * The failure view's facts in plain lines: what went wrong, each failed service's state and last lines, and —
 * when no service printed anything (the build, the checkout or the policy failed) — the build's last lines.
 */
export function failureReport(result: DeploymentResult): string[] {
  const report = result.failure;
  const lines = [
    `Deployment ${result.deployment_id} of ${result.workspace} failed: ${result.error ?? 'no reason given'}`,
  ];
  let serviceLines = 0;
  if (report) {
    if (report.failure_reason && report.failure_reason !== result.error)
      lines.push(`Reason: ${report.failure_reason}`);
    if (report.failed_services.length > 0)
      lines.push(`Failed services: ${report.failed_services.join(', ')}`);
    for (const state of report.service_states) {
      const code = state.exit_code === null ? '' : ` (exit code ${state.exit_code})`;
      lines.push(`  ${state.service}: ${state.state}${code}${state.message ? ` — ${state.message}` : ''}`);
    }
    for (const [service, log] of Object.entries(report.container_logs)) {
      const last = log.trimEnd().split('\n').slice(-REPORT_LOG_LINES);
      if (last.join('') === '') continue;
      serviceLines += last.length;
      lines.push(`--- last lines of ${service} ---`, ...last.map(printable));
    }
  }
  if (serviceLines === 0 && result.build_log.length > 0) {
    lines.push('--- last lines of the build log ---', ...result.build_log.map(printable));
  }
  return lines;
}

/**
 * A finished deployment: its result (the JSON document with --json), and on failure the whole report on stderr
 * — with --json too, so a CI log says why the job failed while stdout stays one document. Exit 1 when it failed.
 */
export function presentDeployment(ctx: CommandContext, result: DeploymentResult, done: string): number {
  if (result.state === 'failed') {
    ctx.output.result(result, () => []);
    for (const line of failureReport(result)) ctx.output.note(line);
    return EXIT.failed;
  }
  ctx.output.result(result, (r) => [
    done,
    ...table(Object.entries(r.urls).map(([service, url]) => [`  ${service}`, url])),
  ]);
  return EXIT.ok;
}
