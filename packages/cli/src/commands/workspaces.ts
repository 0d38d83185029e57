import type { WorkspaceDetails, WorkspaceSummary } from '@slipway/contract';
import { EXIT, RefusedError, UsageError } from '../cliErrors.js';
import { table } from '../output.js';
import type { CommandContext } from './commandContext.js';

/** One workspace in `workspaces --json` and `status --json` without a workspace. */
export interface WorkspaceLine {
  name: string;
  repository: string;
  branch: string;
  status: string;
  /** Service name → public URL. */
  urls: Record<string, string>;
  created_at: string;
}

const line = (w: WorkspaceSummary): WorkspaceLine => ({
  name: w.workspace_name,
  repository: `${w.repo_owner}/${w.repo_name}`,
  branch: w.branch,
  status: w.status,
  urls: w.service_urls,
  created_at: w.created_at,
});

function listText(list: { workspaces: WorkspaceLine[] }) {
  if (list.workspaces.length === 0) return 'No workspaces yet: deploy one with `slipway deploy OWNER/REPO`';
  return table([
    ['NAME', 'STATUS', 'REPOSITORY', 'BRANCH', 'URLS'],
    ...list.workspaces.map((w) => [
      w.name,
      w.status,
      w.repository,
      w.branch,
      Object.values(w.urls).join(' '),
    ]),
  ]);
}

/** The state of a workspace whose last deployment left it without a working version. */
const FAILED = 'failed';

async function listed(ctx: CommandContext): Promise<WorkspaceLine[]> {
  const list = { workspaces: (await ctx.client.call('listWorkspaces')).map(line) };
  ctx.output.result(list, listText);
  return list.workspaces;
}

export async function workspaces(ctx: CommandContext): Promise<number> {
  await listed(ctx);
  return EXIT.ok;
}

/** `status WORKSPACE --json`. */
export interface WorkspaceStatus extends WorkspaceLine {
  services: WorkspaceDetails['service_states'];
  latest_deployment: WorkspaceDetails['latest_deployment'];
  /** What last went wrong (a failed deployment's reason), or null. */
  last_error: string | null;
}

/**
 * A workspace's state, or every workspace's: exit 1 when one is failed (its last deployment left it without a
 * working version), so a script or a CI check can ask `slipway status shop` and act on the exit status.
 */
export async function status(ctx: CommandContext, args: { workspace: string | undefined }): Promise<number> {
  if (!args.workspace) {
    const all = await listed(ctx);
    return all.some((w) => w.status === FAILED) ? EXIT.failed : EXIT.ok;
  }
  const details = await ctx.client.call('workspaceDetails', { params: { name: args.workspace } });
  const result: { workspace: WorkspaceStatus } = {
    workspace: {
      ...line(details),
      services: details.service_states,
      latest_deployment: details.latest_deployment,
      last_error: details.log_watcher.last_error,
    },
  };
  ctx.output.result(result, ({ workspace: w }) => {
    const latest = w.latest_deployment;
    return [
      `${w.name}: ${w.status}  (${w.repository}@${w.branch})`,
      latest
        ? `Latest deployment: ${latest.id} ${latest.status} (${latest.trigger}, ${latest.commit_sha?.slice(0, 7) ?? 'no commit'}, ${latest.created_at})`
        : 'No deployment yet',
      ...(w.status === FAILED && w.last_error ? [`Last error: ${w.last_error}`] : []),
      ...table(
        w.services.map((s) => [
          `  ${s.service}`,
          s.exit_code === null ? s.state : `${s.state} (exit code ${s.exit_code})`,
          s.url ?? '',
          s.message ?? '',
        ]),
      ),
    ];
  });
  return result.workspace.status === FAILED ? EXIT.failed : EXIT.ok;
}

/** `delete --json`. */
export interface DeleteResult {
  workspace: string;
  deleted: true;
  message: string;
}

export async function deleteWorkspace(
  ctx: CommandContext,
  args: { workspace: string; yes: boolean },
): Promise<number> {
  if (!args.yes) {
    if (!ctx.ask) throw new UsageError('Pass --yes to delete a workspace when stdin is not a terminal');
    const answer = await ctx.ask(
      `This deletes ${args.workspace}: its containers, images, volumes and variables. Type its name to go on: `,
    );
    if (answer.trim() !== args.workspace) throw new RefusedError('Nothing deleted: that is not its name');
  }
  const answer = await ctx.client.call('deleteWorkspace', { params: { name: args.workspace } });
  ctx.output.result<DeleteResult>(
    { workspace: args.workspace, deleted: true, message: answer.message },
    (r) => r.message,
  );
  return EXIT.ok;
}
