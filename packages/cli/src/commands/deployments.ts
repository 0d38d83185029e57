import { randomUUID } from 'node:crypto';
import { type VM_SIZE_IDS, type WorkflowStatus, workflowStatusSchema } from '@slipway/contract';

type VmSizeId = (typeof VM_SIZE_IDS)[number];

import { CliError, RefusedError, UsageError } from '../cliErrors.js';
import { createProgressView } from '../deploymentProgress.js';
import type { CommandContext } from './commandContext.js';
import { buildLogTail, type DeploymentResult, presentDeployment } from './deploymentReport.js';

const POLL_MS = 1000;

/**
 * Follows a started deployment to its end, drawing its progress: the status stream shows every step as it
 * changes; if the stream cannot be opened or breaks off, polling the status every second takes over. The final
 * status is always read once more from the status route.
 */
async function follow(
  ctx: CommandContext,
  workspace: string,
  started: { sessionId: string; deploymentId: string },
  repository: () => Promise<{ owner: string; repo: string }>,
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
  const buildLog = failed ? await buildLogTail(ctx, repository) : [];
  return {
    workspace,
    session_id: started.sessionId,
    deployment_id: started.deploymentId,
    state: failed ? 'failed' : 'completed',
    error: status.error,
    urls: status.data.deploymentData.metadata.urls,
    failure,
    build_log: buildLog,
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
  const result = await follow(ctx, args.repo, started, async () => args);
  return presentDeployment(
    ctx,
    result,
    `Deployed ${args.owner}/${args.repo}@${args.branch} to workspace ${args.repo}`,
  );
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
    throw new RefusedError(
      args.revision
        ? `Workspace ${args.workspace} has no revision ${args.revision}`
        : `Workspace ${args.workspace} has no earlier revision whose images are still kept`,
    );
  }
  if (!target.can_roll_back) {
    throw new RefusedError(
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
  // The build log's route names the repository; a rollback knows only the workspace, so it asks, if it fails.
  const repository = async () => {
    const details = await ctx.client.call('workspaceDetails', { params: { name: args.workspace } });
    return { owner: details.repo_owner, repo: args.workspace };
  };
  const result: RollbackResult = {
    ...(await follow(ctx, args.workspace, started, repository)),
    rollback_of: target.deployment_id,
  };
  return presentDeployment(ctx, result, `Rolled ${args.workspace} back to ${target.deployment_id}`);
}

function onlyOne<T extends { deployment_id: string }>(matches: T[], prefix: string): T | undefined {
  if (matches.length > 1) {
    throw new UsageError(`${prefix} matches ${matches.length} revisions; give more of the deployment id`);
  }
  return matches[0];
}
