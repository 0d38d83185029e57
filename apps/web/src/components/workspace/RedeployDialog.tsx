import { useEffect, useState } from 'react';
import { useRedeployBranches } from '../../api/workspaces';
import type { RepoRef } from '../../lib/repoUrl';
import { Button, Dialog, Select } from '../ui';

export const REDEPLOY_DEFAULT_BRANCH = 'main';

/** 'Configure Redeploy': a branch choice only (the VM size stays the workspace's). */
export function RedeployDialog({
  open,
  target,
  currentBranch,
  busy,
  onClose,
  onConfirm,
}: {
  open: boolean;
  target: RepoRef | null;
  currentBranch?: string | null;
  busy: boolean;
  onClose: () => void;
  onConfirm: (branch: string) => void;
}) {
  const [branch, setBranch] = useState(REDEPLOY_DEFAULT_BRANCH);
  const branches = useRedeployBranches(target, open);

  useEffect(() => {
    if (open) setBranch(currentBranch || REDEPLOY_DEFAULT_BRANCH);
  }, [open, currentBranch]);

  const names = branches.data ?? [];
  const options = (names.includes(branch) || names.length === 0 ? names : [branch, ...names]).map((name) => ({
    value: name,
    label: name,
  }));
  if (options.length === 0) options.push({ value: branch, label: branch });

  return (
    <Dialog
      open={open}
      onClose={() => !busy && onClose()}
      title="Configure Redeploy"
      description={target ? `${target.owner}/${target.repo}` : undefined}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button onClick={() => onConfirm(branch)} loading={busy} disabled={!branch}>
            {busy ? 'Deploying...' : 'Deploy Again'}
          </Button>
        </>
      }
    >
      <Select
        label="Branch"
        value={branch}
        onChange={(event) => setBranch(event.target.value)}
        options={options}
        hint={
          branches.isLoading
            ? 'Loading branches...'
            : branches.isError
              ? 'Branches could not be loaded.'
              : undefined
        }
      />
    </Dialog>
  );
}
