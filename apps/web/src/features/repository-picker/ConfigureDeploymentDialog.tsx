import {
  DEFAULT_VM_SIZE,
  MAX_WORKSPACE_NODES,
  monthlyPrice,
  workspaceNodeCountSchema,
} from '@slipway/contract';
import { GitBranch, Server } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useBranches, useVmSizes } from '../../api/repositories';
import { Button, Dialog, NumberInput } from '../../components/ui';
import { defaultBranch } from '../../lib/defaultBranch';
import { confirmDisabled, filterBranches, filterVmSizes, limitEntries } from './branchSelection';
import { SearchableDropdown } from './SearchableDropdown';

/** What confirming the dialog returns. */
export interface DeploymentChoice {
  branch: string;
  vmSize: string;
  /** How many VMs of the size the workspace runs on (1–5). */
  nodes: number;
}

interface ConfigureDeploymentDialogProps {
  open: boolean;
  repo: { name: string; owner: { login: string } };
  initialBranch?: string;
  initialVmSize?: string;
  initialNodes?: number;
  onClose: () => void;
  onConfirm: (choice: DeploymentChoice) => void;
  /** The caller is busy with the confirmed choice: confirm disabled and reading 'Processing...'. */
  loading?: boolean;
  title?: string;
  confirmText?: string;
  showBranchSelection?: boolean;
  showVmSizeSelection?: boolean;
}

type OpenDropdown = 'branch' | 'vm' | null;

/** 'Configure Deployment': branch and VM size, each a searchable dropdown of at most 10 entries. */
export function ConfigureDeploymentDialog({
  open,
  repo,
  initialBranch = '',
  initialVmSize = DEFAULT_VM_SIZE,
  initialNodes = 1,
  onClose,
  onConfirm,
  loading = false,
  title = 'Configure Deployment',
  confirmText = 'Continue',
  showBranchSelection = true,
  showVmSizeSelection = true,
}: ConfigureDeploymentDialogProps) {
  const branches = useBranches(open ? repo.owner.login : undefined, open ? repo.name : undefined);
  const vmSizes = useVmSizes();
  const [branch, setBranch] = useState(initialBranch);
  const [vmSize, setVmSize] = useState(initialVmSize);
  // Text until confirmed, so a half-typed number is not replaced under the cursor.
  const [nodesText, setNodesText] = useState(String(initialNodes));
  const [nodesError, setNodesError] = useState<string | null>(null);
  const [dropdown, setDropdown] = useState<OpenDropdown>(null);
  const [branchSearch, setBranchSearch] = useState('');
  const [vmSearch, setVmSearch] = useState('');
  /** At most one of the two dropdowns is open. */
  const openState = (which: NonNullable<OpenDropdown>) => ({
    open: dropdown === which,
    onOpenChange: (next: boolean) => setDropdown(next ? which : null),
  });

  useEffect(() => {
    if (!open) return;
    setBranch(initialBranch);
    setVmSize(initialVmSize);
    setNodesText(String(initialNodes));
    setNodesError(null);
    setDropdown(null);
    setBranchSearch('');
    setVmSearch('');
  }, [open, initialBranch, initialVmSize, initialNodes]);

  const branchNames = branches.data ?? [];
  useEffect(() => {
    if (!branches.data) return;
    setBranch((current) =>
      current && branches.data.includes(current) ? current : defaultBranch(branches.data),
    );
  }, [branches.data]);

  const branchList = useMemo(
    () => limitEntries(filterBranches(branchNames, branchSearch), 'branches'),
    [branchNames, branchSearch],
  );
  const sizes = vmSizes.data ?? [];
  const vmList = useMemo(() => limitEntries(filterVmSizes(sizes, vmSearch), 'VM sizes'), [sizes, vmSearch]);
  const chosenSize = sizes.find((size) => size.id === vmSize);

  const branchesLoading = branches.isFetching;
  const disabled = confirmDisabled({ loading, showBranchSelection, branch, branchesLoading });
  // Confirming mid-load with nothing chosen yet would carry an empty branch; wait for the list instead.
  const confirm = () => {
    if (showBranchSelection && !branch) return;
    const nodes = workspaceNodeCountSchema.safeParse(nodesText.trim() === '' ? undefined : Number(nodesText));
    if (!nodes.success) {
      setNodesError(nodes.error.issues[0]?.message ?? null);
      return;
    }
    onConfirm({ branch, vmSize, nodes: nodes.data });
  };
  const chosenNodes = Number(nodesText);

  return (
    <Dialog
      open={open}
      onClose={onClose}
      onEscape={() => {
        if (dropdown === null) return false;
        setDropdown(null);
        return true;
      }}
      title={title}
      description={
        <>
          {repo.owner.login}/<span className="font-medium text-zinc-700">{repo.name}</span>
        </>
      }
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={disabled} loading={loading} onClick={confirm}>
            {loading ? 'Processing...' : confirmText}
          </Button>
        </>
      }
    >
      <div className="space-y-5">
        {showBranchSelection && (
          <SearchableDropdown
            testId="branch-dropdown"
            label="Branch"
            icon={GitBranch}
            display={branch}
            placeholder="Select a branch"
            {...openState('branch')}
            search={branchSearch}
            onSearch={setBranchSearch}
            searchPlaceholder="Search branches..."
            options={branchList.shown.map((name) => ({ value: name, label: name }))}
            selected={branch}
            onSelect={setBranch}
            loading={branchesLoading}
            loadingText="Loading branches..."
            emptyText={
              branchSearch.trim() ? 'No branches found matching your search.' : 'No branches available.'
            }
            moreText={branchList.moreText}
          />
        )}
        {showVmSizeSelection && (
          <SearchableDropdown
            testId="vm-size-dropdown"
            label="VM Size"
            icon={Server}
            display={
              chosenSize ? `${chosenSize.name} — ${chosenSize.specs} · $${chosenSize.price}/month` : vmSize
            }
            placeholder="Select a VM size"
            {...openState('vm')}
            search={vmSearch}
            onSearch={setVmSearch}
            searchPlaceholder="Search VM sizes..."
            options={vmList.shown.map((size) => ({
              value: size.id,
              label: `${size.name} · $${size.price}/month`,
              detail: `${size.specs} — ${size.description}`,
            }))}
            selected={vmSize}
            onSelect={setVmSize}
            emptyText="No VM sizes found matching your search."
            moreText={vmList.moreText}
          />
        )}
        {showVmSizeSelection && (
          <NumberInput
            label="Nodes"
            min={1}
            max={MAX_WORKSPACE_NODES}
            step={1}
            value={nodesText}
            onChange={(event) => {
              setNodesText(event.target.value);
              setNodesError(null);
            }}
            error={nodesError ?? undefined}
            hint={
              chosenSize &&
              Number.isInteger(chosenNodes) &&
              chosenNodes > 1 &&
              chosenNodes <= MAX_WORKSPACE_NODES
                ? `${chosenNodes} VMs of this size: $${monthlyPrice(chosenSize, chosenNodes)}/month.`
                : 'VMs of this size the app runs on, 1 to 5.'
            }
          />
        )}
      </div>
    </Dialog>
  );
}
