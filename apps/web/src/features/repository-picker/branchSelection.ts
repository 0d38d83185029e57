/** Pure rules of the Configure Deployment dialog: branch names, defaults, search and the 10-entry limit. */

export const DROPDOWN_LIMIT = 10;

/** Case-insensitive substring match on the branch name. */
export function filterBranches(branches: readonly string[], term: string): string[] {
  const needle = term.trim().toLowerCase();
  return needle ? branches.filter((name) => name.toLowerCase().includes(needle)) : [...branches];
}

/** VM size search matches the name, the description or the specs. */
export function filterVmSizes<T extends { name: string; description: string; specs: string }>(
  sizes: readonly T[],
  term: string,
): T[] {
  const needle = term.trim().toLowerCase();
  if (!needle) return [...sizes];
  return sizes.filter((size) =>
    [size.name, size.description, size.specs].some((field) => field.toLowerCase().includes(needle)),
  );
}

/** The first 10 matches and, when there are more, the spec's hint line. */
export function limitEntries<T>(
  items: readonly T[],
  noun: string,
  limit = DROPDOWN_LIMIT,
): { shown: T[]; moreText: string | null } {
  const shown = items.slice(0, limit);
  return {
    shown,
    moreText:
      items.length > limit
        ? `Showing ${shown.length} of ${items.length} ${noun}. Type to search more.`
        : null,
  };
}

/**
 * Confirm is disabled while loading, or while the branch selection is shown with no branch
 * chosen and the branches are not loading.
 */
export function confirmDisabled(state: {
  loading: boolean;
  showBranchSelection: boolean;
  branch: string;
  branchesLoading: boolean;
}): boolean {
  if (state.loading) return true;
  return state.showBranchSelection && !state.branch && !state.branchesLoading;
}
