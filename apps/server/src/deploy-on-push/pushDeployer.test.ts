import pino from 'pino';
import { afterEach, expect, it, vi } from 'vitest';
import { REFS_FULL_READ_MS } from '../repositories/refWatches.js';
import type { PushMarks } from '../workspaces/pushMarks.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import { createPushDeployer } from './pushDeployer.js';

const workspace = (id: string, repoName: string) =>
  ({
    id,
    userId: 'u1',
    name: id,
    repoOwner: 'acme',
    repoName,
    branch: 'main',
    pushSeenSha: 'a1',
  }) as WorkspaceRow;

afterEach(() => vi.useRealTimers());

/**
 * Deploy on push in local mode reads branch heads only from repositories whose refs moved (the kernel's watch
 * says so), not every workspace's every second: at rest, 200 workspaces cost no ref reads a tick.
 */
it('reads the branch heads of the repositories whose refs moved, and all of them now and then', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  const fleet = [workspace('w1', 'shop'), workspace('w2', 'shop'), workspace('w3', 'blog')];
  const listed = vi.fn(async () => fleet.map((row) => ({ ...row })));
  const marks = {
    watched: listed,
    due: async () => [],
    recordHead: vi.fn(async () => {}),
  } as unknown as PushMarks;
  const onChange = new Map<string, () => void>();
  const stopped: string[] = [];
  const reads: string[] = [];
  const deployer = createPushDeployer({
    marks,
    repository: { activeForWorkspace: async () => undefined, latestForWorkspace: async () => undefined },
    deployments: { deploy: vi.fn() },
    readBranchHead: async (_owner, repo) => {
      reads.push(repo);
      return 'a1';
    },
    watchLocalRefs: async (_owner, repo, changed) => {
      onChange.set(repo, changed);
      return () => stopped.push(repo);
    },
    kv: {} as never,
    logger: pino({ level: 'silent' }),
  });

  // The first look reads every head (nothing was read before the watches began), one watch per repository.
  await deployer.check();
  expect(reads.sort()).toEqual(['blog', 'shop', 'shop']);
  expect([...onChange.keys()].sort()).toEqual(['blog', 'shop']);

  // At rest: no head read at all, and the list of workspaces is not asked for again either.
  reads.length = 0;
  await deployer.check();
  await deployer.check();
  expect(reads).toEqual([]);
  expect(listed).toHaveBeenCalledTimes(1);

  // A ref of shop moved: both of its workspaces' heads are read, blog's is not.
  onChange.get('shop')!();
  await deployer.check();
  expect(reads).toEqual(['shop', 'shop']);

  // A change the kernel did not tell of is found by the full read, once its interval passed.
  reads.length = 0;
  vi.setSystemTime(Date.now() + REFS_FULL_READ_MS);
  await deployer.check();
  expect(reads.sort()).toEqual(['blog', 'shop', 'shop']);

  // The switch turned off for blog here: the list is read again at once, and its repository let go.
  fleet.pop();
  deployer.refresh();
  await deployer.check();
  await deployer.stop();
  expect(stopped.sort()).toEqual(['blog', 'shop']);
});
