import { type Preview, type PreviewState, previewWorkspaceName } from '@slipway/contract';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import type { PreviewRow } from './previewsRepository.js';

export function presentPreview(
  parent: WorkspaceRow,
  row: PreviewRow,
  workspace: WorkspaceRow | undefined,
): Preview {
  return {
    number: row.number,
    title: row.title,
    branch: row.branch,
    head_sha: row.headSha,
    author: row.author,
    from_fork: row.fromFork,
    needs_approval: row.needsApproval,
    approved_sha: row.approvedSha,
    state: row.state as PreviewState,
    cause: row.cause,
    workspace: previewWorkspaceName(parent.name, row.number),
    urls: row.state === 'live' ? (workspace?.serviceUrls ?? {}) : {},
    pull_request_url: row.pullRequestUrl,
    created_at: row.createdAt.toISOString(),
    last_activity_at: row.lastActivityAt.toISOString(),
  };
}
