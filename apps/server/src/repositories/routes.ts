import { VM_SIZES } from '@slipway/contract';
import type { RouteHandlers } from '../http/registerRoutes.js';
import type { RepositoryProvider } from './repositoryProvider.js';

/**
 * The repository picker's calls (GitHub-shaped in both modes), and the VM size catalogue. Names are
 * checked by the provider with readable messages.
 */
export function repositoryRoutes(deps: { repositories: RepositoryProvider }) {
  const { repositories } = deps;
  return {
    listRepositories: ({ user }) => repositories.listRepositories(user),
    getRepository: ({ user, params }) => repositories.getRepository(user, params.owner, params.repo),
    repositoryRoot: ({ user, params, query }) =>
      repositories.getContents(user, params.owner, params.repo, '', query.ref),
    repositoryContents: ({ user, params, query }) =>
      repositories.getContents(user, params.owner, params.repo, params['*'] ?? '', query.ref),
    listBranches: ({ user, params, query }) =>
      repositories.listBranches(user, params.owner, params.repo, query.page, query.per_page),
    // The permissions page is open to people still on the waiting list (access 'user').
    listInstallations: ({ user }) => repositories.listInstallations(user),
    vmSizes: () => [...VM_SIZES],
  } satisfies Partial<RouteHandlers>;
}
