import { randomUUID } from 'node:crypto';
import {
  type DeployJobMetadata,
  type VM_SIZE_IDS,
  type WorkflowStatus,
  workflowStatusSchema,
} from '@slipway/contract';

type VmSizeId = (typeof VM_SIZE_IDS)[number];

import { CliError, EXIT } from '../cliErrors.js';
import { createProgressView } from '../deploymentProgress.js';
import { table } from '../output.js';
import type { CommandContext } from './commandContext.js';

const POLL_MS = 1000;
const REPORT_LOG_LINES = 20;

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
}

/**
 * Follows a started deployment to its end, drawing its progress: the status stream shows every step as it
 * changes; if the stream cannot be opened or breaks off, polling the status every second takes over. The final
 * status is always read once more from the status route.
 */
async function follow(
  ctx: CommandContext,
  workspace: string,
  started: { sessionId: string; deploymentId: string },
): Promise<DeploymentResult> {
  const view = createProgressView(ctx.output);
  const params = { sessionId: started.sessionId };
  try {
    for await (const data of ctx.client.stream('deploymentStatusStream', { params })) {
      const event = statusEvent(data);
      if (event) view.update(event);
      if (event?.state !== undefined && event.state !== 'started') break;
    }
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
  }
  let status: WorkflowStatus;
  for (;;) {
    status = await ctx.client.call('deploymentStatus', { params });
    view.update(status);
    if (status.state !== 'started') break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  view.finish();
  const failed = status.state === 'failed';
  const failure = failed
    ? await ctx.client.call('deploymentJob', { params: { id: started.deploymentId } })
    : null;
  return {
    workspace,
    session_id: started.sessionId,
    deployment_id: started.deploymentId,
    state: failed ? 'failed' : 'completed',
    error: status.error,
    urls: status.data.deploymentData.metadata.urls,
    failure,
  };
}

/** A `status` or `finished` event of the status stream (the status with its `type` beside it), else undefined. */
function statusEvent(data: string): WorkflowStatus | undefined {
  try {
    const { type, ...status } = JSON.parse(data) as { type?: string };
    if (type !== 'status' && type !== 'finished') return undefined;
    const parsed = workflowStatusSchema.safeParse(status);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The failure view's facts in plain lines: what went wrong, then each failed service's state and last lines. */
export function failureReport(result: DeploymentResult): string[] {
  const report = result.failure;
  const lines = [
    `Deployment ${result.deployment_id} of ${result.workspace} failed: ${result.error ?? 'no reason given'}`,
  ];
  if (!report) return lines;
  if (report.failure_reason && report.failure_reason !== result.error)
    lines.push(`Reason: ${report.failure_reason}`);
  if (report.failed_services.length > 0) lines.push(`Failed services: ${report.failed_services.join(', ')}`);
  for (const state of report.service_states) {
    const code = state.exit_code === null ? '' : ` (exit code ${state.exit_code})`;
    lines.push(`  ${state.service}: ${state.state}${code}${state.message ? ` — ${state.message}` : ''}`);
  }
  for (const [service, log] of Object.entries(report.container_logs)) {
    const last = log.trimEnd().split('\n').slice(-REPORT_LOG_LINES);
    if (last.join('') === '') continue;
    lines.push(`--- last lines of ${service} ---`, ...last);
  }
  return lines;
}

function present(ctx: CommandContext, result: DeploymentResult, done: string) {
  if (result.state === 'failed') {
    ctx.output.result(result, () => []);
    if (!ctx.output.json) for (const line of failureReport(result)) ctx.output.note(line);
    else ctx.output.note(failureReport(result)[0]!);
    return EXIT.failure;
  }
  ctx.output.result(result, (r) => [
    done,
    ...table(Object.entries(r.urls).map(([service, url]) => [`  ${service}`, url])),
  ]);
  return EXIT.ok;
}

export async function deploy(
  ctx: CommandContext,
  args: { owner: string; repo: string; branch: string; size: VmSizeId | undefined; redeploy: boolean },
): Promise<number> {
  const sessionId = randomUUID();
  const started = await ctx.client.call('startDeployment', {
    body: {
      sessionId,
      owner: args.owner,
      repo: args.repo,
      branch: args.branch,
      ...(args.size ? { vmSize: args.size } : {}),
      workflowType: args.redeploy ? 'redeploy' : 'deploy',
    },
  });
  ctx.output.note(`Deploying ${args.owner}/${args.repo}@${args.branch} (deployment ${started.deploymentId})`);
  const result = await follow(ctx, args.repo, started);
  return present(ctx, result, `Deployed ${args.owner}/${args.repo}@${args.branch} to workspace ${args.repo}`);
}

/** `rollback --json`: a deployment result and the revision it started again. */
export interface RollbackResult extends DeploymentResult {
  rollback_of: string;
}

export async function rollback(
  ctx: CommandContext,
  args: { workspace: string; revision: string | undefined },
): Promise<number> {
  const { revisions } = await ctx.client.call('workspaceRevisions', { params: { name: args.workspace } });
  const target = args.revision
    ? (revisions.find((r) => r.deployment_id === args.revision) ??
      onlyOne(
        revisions.filter((r) => r.deployment_id.startsWith(args.revision!)),
        args.revision,
      ))
    : revisions.find((r) => !r.current && r.can_roll_back);
  if (!target) {
    throw new CliError(
      args.revision
        ? `Workspace ${args.workspace} has no revision ${args.revision}`
        : `Workspace ${args.workspace} has no earlier revision whose images are still kept`,
    );
  }
  if (!target.can_roll_back) {
    throw new CliError(
      `Revision ${target.deployment_id} of ${args.workspace} can no longer be rolled back to: its images are gone`,
    );
  }
  const sessionId = randomUUID();
  const started = await ctx.client.call('rollbackWorkspace', {
    params: { name: args.workspace, deploymentId: target.deployment_id },
    body: { sessionId },
  });
  ctx.output.note(
    `Rolling ${args.workspace} back to ${target.deployment_id} (${target.commit_sha?.slice(0, 7) ?? 'no commit'}, deployed ${target.deployed_at})`,
  );
  const result: RollbackResult = {
    ...(await follow(ctx, args.workspace, started)),
    rollback_of: target.deployment_id,
  };
  return present(ctx, result, `Rolled ${args.workspace} back to ${target.deployment_id}`);
}

function onlyOne<T extends { deployment_id: string }>(matches: T[], prefix: string): T | undefined {
  if (matches.length > 1) {
    throw new CliError(`${prefix} matches ${matches.length} revisions; give more of the deployment id`);
  }
  return matches[0];
}
