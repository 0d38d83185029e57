import { LABELS } from '../../infra/docker/conventions.js';
import { StepFailure } from '../../rollout/stepFailure.js';
import type { DockerTarget, VmRow } from '../../vm-providers/vmProvider.js';
import type { DeploymentDeps } from '../deploymentDeps.js';

const MB = 1024 * 1024;
const inMb = (bytes: number) => `${Math.floor(bytes / MB).toLocaleString('en-US')} MB`;

/**
 * Before a build: if the VM's disk is short of `minFreeDiskBytes`, removes this workspace's images beyond the
 * kept versions and Slipway's dangling layers (and, on a VM of its own, the unused build cache), then refuses
 * to build if that was not enough, rather than filling the disk halfway through.
 */
export async function guardDisk(
  deps: Pick<DeploymentDeps, 'minFreeDiskBytes' | 'repository' | 'keepVersions' | 'plans'>,
  target: DockerTarget,
  vm: Pick<VmRow, 'provider'>,
  workspaceId: string,
  log: (line: string) => void,
) {
  const needed = deps.minFreeDiskBytes;
  if (needed <= 0) return;
  const free = await target.freeDiskBytes().catch(() => undefined);
  if (free === undefined || free >= needed) return;

  log(
    `Free disk on the VM is low (${inMb(free)}, ${inMb(needed)} wanted): removing older versions' images and unused build cache`,
  );
  const kept = (await deps.repository.completedForWorkspace(workspaceId))
    .slice(0, deps.keepVersions)
    .map((row) => row.id);
  // Each prune is best effort: what one failed to free shows in the free disk measured below, which decides.
  await deps.plans.pruneImagesTo(target.docker, workspaceId, kept).catch(() => 0);
  await target.docker
    .pruneImages({ filters: { dangling: ['true'], label: [LABELS.workspaceId] } })
    .catch(() => {});
  // The local provider shares this machine with whatever else runs on it: its build cache is not ours to clear.
  if (vm.provider !== 'local') await target.docker.pruneBuilder().catch(() => {});

  const after = await target.freeDiskBytes().catch(() => undefined);
  if (after !== undefined && after < needed) {
    throw new StepFailure(
      `Not enough free disk on the VM to build: ${inMb(after)} free, ${inMb(needed)} needed. Older images and unused build cache were removed already; free some space on the VM or choose a larger VM size.`,
      { disk_free_bytes: after, disk_needed_bytes: needed },
    );
  }
  log(`Free disk is now ${after === undefined ? 'unknown' : inMb(after)}`);
}
