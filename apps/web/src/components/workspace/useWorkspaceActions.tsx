import type { WorkspaceSummary } from '@slipway/contract';
import { DEFAULT_VM_SIZE, findVmSize } from '@slipway/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { serverDetail } from '../../api/errors';
import { deleteWorkspace, startRedeploy, workspacesKey } from '../../api/workspaces';
import { deployPath } from '../../lib/deployPath';
import { type RepoRef, redeployTarget } from '../../lib/repoUrl';
import { newSessionId } from '../../lib/sessionId';
import { useDialogs } from '../DialogsProvider';
import { RedeployDialog } from './RedeployDialog';

export type WorkspaceBusy = 'redeploy' | 'delete' | null;

/**
 * Deploy Again and Delete Workspace, shared by the dashboard and the monitoring screen. Render
 * `dialog` once; call `redeploy()` / `remove()` from buttons.
 */
export function useWorkspaceActions(workspace: WorkspaceSummary | undefined, onDeleted?: () => void) {
  const dialogs = useDialogs();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<WorkspaceBusy>(null);
  const [target, setTarget] = useState<RepoRef | null>(null);

  const redeploy = async () => {
    if (!workspace) return;
    const found = redeployTarget(workspace.repo_url);
    if ('error' in found) {
      await dialogs.alert(found.error);
      return;
    }
    setTarget(found);
  };

  const confirmRedeploy = async (branch: string) => {
    if (!workspace || !target) return;
    const sessionId = newSessionId();
    // The dialog has no VM size choice: keep the workspace's size, else the spec's default.
    const vmSize = findVmSize(workspace.vm_config?.vm_size ?? '')?.id ?? DEFAULT_VM_SIZE;
    setBusy('redeploy');
    try {
      await startRedeploy({ sessionId, owner: target.owner, repo: target.repo, branch, vmSize });
      navigate(deployPath(target.owner, target.repo, sessionId), { state: { branch, vmSize } });
    } catch (error) {
      setTarget(null);
      await dialogs.alert(
        `Failed to start redeploy: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      setBusy(null);
    }
  };

  const remove = async () => {
    if (!workspace) return;
    const name = workspace.workspace_name;
    const confirmed = await dialogs.confirm(`Are you sure you want to delete workspace ${name}?`, {
      title: 'Delete Workspace',
      confirmLabel: 'Delete Workspace',
      destructive: true,
    });
    if (!confirmed) return;
    setBusy('delete');
    try {
      await deleteWorkspace(name);
      await queryClient.invalidateQueries({ queryKey: workspacesKey });
      onDeleted?.();
    } catch (error) {
      await dialogs.alert(`Failed to delete workspace: ${serverDetail(error) ?? 'Please try again.'}`);
    } finally {
      setBusy(null);
    }
  };

  const dialog = (
    <RedeployDialog
      open={target !== null}
      target={target}
      currentBranch={workspace?.branch}
      busy={busy === 'redeploy'}
      onClose={() => setTarget(null)}
      onConfirm={confirmRedeploy}
    />
  );

  return { busy, redeploy, remove, dialog };
}
