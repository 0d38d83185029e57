import type { WorkspaceSummary } from '@slipway/contract';
import { Check, ChevronDown } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { cn } from './ui/cn';
import { useDismiss } from './useDismiss';

/**
 * The workspace choice of the dashboard and monitoring headers, with the spec's four states (loading,
 * failed: a click retries, none, the choice); the list is at most 64 units high.
 */
export function WorkspacePicker({
  workspaces,
  loading = false,
  failed = false,
  selected,
  onSelect,
  onRetry,
}: {
  workspaces: WorkspaceSummary[];
  loading?: boolean;
  failed?: boolean;
  selected: string;
  onSelect: (name: string) => void;
  /** A click on the failed picker asks again. */
  onRetry?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const root = useRef<HTMLDivElement>(null);

  useDismiss(open, root, () => setOpen(false));

  const label = loading
    ? 'Loading workspaces...'
    : failed
      ? 'Failed to load'
      : workspaces.length === 0
        ? 'No workspaces'
        : selected || 'Select workspace...';

  const onClick = () => {
    if (failed) onRetry?.();
    else if (!loading && workspaces.length > 0) setOpen((value) => !value);
  };

  return (
    <div ref={root} className="relative w-72">
      <button
        type="button"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={listId}
        aria-label="Workspace"
        onClick={onClick}
        className={cn(
          'flex h-10 w-full items-center justify-between gap-2 rounded-lg border bg-white px-3 text-left text-sm font-medium shadow-sm',
          failed ? 'border-red-300 text-red-700' : 'border-zinc-300 text-zinc-900',
        )}
      >
        <span className="truncate">{label}</span>
        <ChevronDown className="h-4 w-4 shrink-0 text-zinc-400" aria-hidden="true" />
      </button>
      {open && (
        <div
          id={listId}
          role="listbox"
          className="absolute z-20 mt-1 max-h-64 w-full overflow-auto rounded-lg border border-zinc-200 bg-white py-1 shadow-lg"
        >
          {workspaces.map((workspace) => {
            const active = workspace.workspace_name === selected;
            return (
              <button
                key={workspace.workspace_name}
                type="button"
                role="option"
                aria-selected={active}
                onClick={() => {
                  onSelect(workspace.workspace_name);
                  setOpen(false);
                }}
                className="flex w-full items-center justify-between gap-2 px-3 py-2 text-left text-sm hover:bg-zinc-50"
              >
                <span className="truncate">{workspace.workspace_name}</span>
                {active && <Check className="h-4 w-4 text-accent-600" aria-hidden="true" />}
              </button>
            );
          })}
        </div>
      )}
    </div>
  );
}
