/** A repository's default branch, shared by the Configure Deployment dialog and a deploy screen opened directly. */

/** main, then master, then the first branch; '' when there are none. */
export function defaultBranch(branches: readonly string[]): string {
  if (branches.includes('main')) return 'main';
  if (branches.includes('master')) return 'master';
  return branches[0] ?? '';
}
