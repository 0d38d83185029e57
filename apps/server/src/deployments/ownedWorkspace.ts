import { DomainError } from '../domain/errors.js';
import type { UserRow } from '../users/usersRepository.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';

/** The user's workspace of that name; another user's, or none, answers 404. */
export async function ownedWorkspace(
  workspaces: Pick<WorkspacesRepository, 'findByName'>,
  user: Pick<UserRow, 'id'>,
  name: string,
): Promise<WorkspaceRow> {
  const workspace = await workspaces.findByName(user.id, name);
  if (!workspace) throw new DomainError('workspace_not_found', 'Workspace not found');
  return workspace;
}
