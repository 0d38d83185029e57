import type { WorkspaceSummary } from '@slipway/contract';
import { RefreshCw } from 'lucide-react';
import { Button } from '../../components/ui';

/** The header's workspace choice; on a failed load it offers Retry. */
export function WorkspaceSelector({
  workspaces,
  selected,
  error,
  onSelect,
  onRetry,
}: {
  workspaces: WorkspaceSummary[];
  selected: string;
  error: string | null;
  onSelect: (name: string) => void;
  onRetry: () => void;
}) {
  if (error) {
    return (
      <div className="flex items-center gap-2 text-sm text-red-700" role="alert">
        <span>{error}</span>
        <Button
          size="sm"
          variant="secondary"
          onClick={onRetry}
          icon={<RefreshCw className="h-4 w-4" aria-hidden="true" />}
        >
          Retry
        </Button>
      </div>
    );
  }
  return (
    <select
      aria-label="Workspace"
      value={selected}
      onChange={(event) => onSelect(event.target.value)}
      className="h-10 min-w-56 rounded-lg border border-zinc-300 bg-white px-3 text-sm font-medium shadow-sm"
    >
      <option value="">{workspaces.length === 0 ? 'No workspaces' : 'Select workspace...'}</option>
      {workspaces.map((workspace) => (
        <option key={workspace.workspace_name} value={workspace.workspace_name}>
          {workspace.workspace_name}
        </option>
      ))}
    </select>
  );
}
