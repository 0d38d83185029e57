import { branchesQuerySchema, contentsQuerySchema, VM_SIZES } from '@slipway/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUser, requireUser, requireWhitelisted } from '../http/requestContext.js';
import { parse } from '../http/validate.js';
import type { RepositoryProvider } from './repositoryProvider.js';

// Names are checked by the provider with readable messages; here they only need to be strings.
const repoParams = z.object({ owner: z.string(), repo: z.string() });
const contentsParams = repoParams.extend({ '*': z.string().optional() });

/** The repository picker's calls (GitHub-shaped in both modes), and the VM size catalogue. */
export function repositoryRoutes(app: FastifyInstance, deps: { repositories: RepositoryProvider }) {
  const { repositories } = deps;

  app.get('/api/github/repos', { preHandler: requireWhitelisted }, async (request) =>
    repositories.listRepositories(currentUser(request)),
  );

  app.get('/api/github/repos/:owner/:repo', { preHandler: requireWhitelisted }, async (request) => {
    const { owner, repo } = parse(repoParams, request.params);
    return repositories.getRepository(currentUser(request), owner, repo);
  });

  const contents = async (request: FastifyRequest) => {
    const { owner, repo, '*': contentsPath } = parse(contentsParams, request.params);
    const { ref } = parse(contentsQuerySchema, request.query);
    return repositories.getContents(currentUser(request), owner, repo, contentsPath ?? '', ref);
  };
  app.get('/api/github/repos/:owner/:repo/contents', { preHandler: requireWhitelisted }, contents);
  app.get('/api/github/repos/:owner/:repo/contents/*', { preHandler: requireWhitelisted }, contents);

  app.get('/api/github/repos/:owner/:repo/branches', { preHandler: requireWhitelisted }, async (request) => {
    const { owner, repo } = parse(repoParams, request.params);
    const { page, per_page } = parse(branchesQuerySchema, request.query);
    return repositories.listBranches(currentUser(request), owner, repo, page, per_page);
  });

  // The permissions page is open to people still on the waiting list.
  app.get('/api/github/installations', { preHandler: requireUser }, async (request) =>
    repositories.listInstallations(currentUser(request)),
  );

  app.get('/api/vm-sizes', async () => VM_SIZES);
}
