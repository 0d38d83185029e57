import type { Branch, Contents, Installation, Repository } from '@slipway/contract';
import type { UserRow } from '../users/usersRepository.js';
import type { CloneSource } from './cloneSource.js';

/**
 * Where repositories come from: GitHub (Octokit) or a local directory of git repositories. Both answer in
 * GitHub's shapes, so the screens and the deployment engine never know which one they talk to.
 * Callers pass untrusted names as they arrived; each adapter validates them.
 */
export interface RepositoryProvider {
  readonly kind: 'github' | 'local';
  /** Every repository the user can see, newest `updated_at` first. */
  listRepositories(user: UserRow): Promise<Repository[]>;
  getRepository(user: UserRow, owner: string, repo: string): Promise<Repository>;
  /** GitHub's contents answer: one entry for a file, an array for a directory ('' is the root). */
  getContents(user: UserRow, owner: string, repo: string, path: string, ref?: string): Promise<Contents>;
  /** One page of branches (GitHub's paging: page from 1, at most 100 per page). */
  listBranches(user: UserRow, owner: string, repo: string, page: number, perPage: number): Promise<Branch[]>;
  listInstallations(user: UserRow): Promise<Installation[]>;
  /** Where and how the deployment engine clones the repository; see cloneSource.ts. */
  cloneSource(user: UserRow, owner: string, repo: string): Promise<CloneSource>;
}

const time = (value: string) => Date.parse(value) || 0;

export const byUpdatedAtDesc = (a: Repository, b: Repository) =>
  time(b.updated_at) - time(a.updated_at) || a.full_name.localeCompare(b.full_name);
