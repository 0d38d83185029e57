import path from 'node:path';
import type Docker from 'dockerode';
import {
  createThrowawayVolume,
  RESTORE_LABEL,
  removeThrowawayVolume,
  runInThrowaway,
  THROWAWAY_LABEL,
  type ThrowawayOwner,
} from '../../infra/docker/throwawayContainers.js';
import { BackupError, type SwapUnit } from './backupEngine.js';

/**
 * A restore's swap: staged data put in place of live data, and back, in steps that can each be run again after a
 * crash. The live data is never deleted by a swap: it is held in a volume of the restore's own (`previous`) until
 * the restore has succeeded or been undone.
 *
 * On a local volume driver (the default), the three volumes' directories sit side by side in the engine's
 * volumes directory: the swap renames directories there (instant, whatever the size). Elsewhere it copies.
 */

/** The engine-side program, fixed; paths and flags are its arguments. */
const SWAP_SCRIPT = `set -eu
op=$1 mode=$2 live=$3 staged=$4 held=$5 existed=$6
shift 6
# Empties a directory, or removes a file, at $1.
clear() { if [ -d "$1" ]; then find "$1" -mindepth 1 -maxdepth 1 -exec rm -rf {} +; else rm -f "$1"; fi; }
# Copies $1 (a directory's contents, or a file) to $2, replacing what is there.
copy() {
  if [ -d "$1" ]; then mkdir -p "$2"; clear "$2"; cp -a "$1/." "$2/";
  else mkdir -p "$(dirname "$2")"; cp -a "$1" "$2.slipway-new"; mv "$2.slipway-new" "$2"; fi
}
case "$op" in
in)
  if [ "$mode" = rename ]; then
    # 1. the live data moves aside, once (it is what an undo puts back).
    if [ "$existed" = yes ] && [ ! -e "$held" ] && [ -e "$staged" ]; then
      mkdir -p "$(dirname "$held")"; mv "$live" "$held"
    fi
    # 2. the live data's own configuration goes with the staged data; 3. the staged data moves in.
    if [ -e "$staged" ]; then
      for keep in "$@"; do if [ -e "$held/$keep" ]; then cp -a "$held/$keep" "$staged/$keep"; fi; done
      mkdir -p "$(dirname "$live")"; mv "$staged" "$live"
    fi
  else
    if [ "$existed" = yes ] && [ ! -e "$held.done" ]; then
      rm -rf "$held"; mkdir -p "$(dirname "$held")"; cp -a "$live" "$held"; touch "$held.done"
    fi
    for keep in "$@"; do if [ -e "$held/$keep" ]; then cp -a "$held/$keep" "$staged/$keep"; fi; done
    copy "$staged" "$live"
  fi
  ;;
back)
  if [ "$mode" = rename ]; then
    if [ -e "$held" ]; then
      if [ -e "$live" ]; then mkdir -p "$(dirname "$staged")"; rm -rf "$staged"; mv "$live" "$staged"; fi
      mkdir -p "$(dirname "$live")"; mv "$held" "$live"
    elif [ "$existed" = no ] && [ -e "$live" ] && [ ! -e "$staged" ]; then
      mkdir -p "$(dirname "$staged")"; mv "$live" "$staged"
    fi
  else
    if [ -e "$held.done" ]; then copy "$held" "$live"
    elif [ "$existed" = no ]; then rm -rf "$live"; fi
  fi
  ;;
exists)
  [ -e "$live" ]
  ;;
esac
`;

type VolumeFacts = Pick<Docker.VolumeInspectInfo, 'Driver' | 'Mountpoint' | 'Options'>;

/** Where the swap's paths are: the engine's volumes directory (renames), or the three volumes mounted (copies). */
async function layout(docker: Docker, unit: SwapUnit) {
  const facts = await Promise.all(
    [unit.live, unit.staging, unit.previous].map(
      async (name): Promise<VolumeFacts> => docker.getVolume(name).inspect(),
    ),
  );
  const roots = facts.map((fact) => path.posix.dirname(path.posix.dirname(fact.Mountpoint)));
  const renamable = facts.every(
    (fact, i) =>
      fact.Driver === 'local' &&
      Object.keys(fact.Options ?? {}).length === 0 &&
      fact.Mountpoint.endsWith('/_data') &&
      roots[i] === roots[0],
  );
  const inside = (base: string, sub: string) => (sub ? path.posix.join(base, sub) : base);
  if (renamable) {
    const dirOf = (fact: VolumeFacts) =>
      `/volumes/${path.posix.basename(path.posix.dirname(fact.Mountpoint))}/_data`;
    const [live, staging, previous] = facts.map(dirOf) as [string, string, string];
    return {
      mode: 'rename' as const,
      volumes: [],
      hosts: [{ hostPath: roots[0]!, path: '/volumes' }],
      live: inside(live, unit.livePath),
      staged: inside(staging, unit.stagingPath),
      held: `${previous}/held`,
    };
  }
  return {
    mode: 'copy' as const,
    volumes: [
      { volume: unit.live, path: '/live' },
      { volume: unit.staging, path: '/staging' },
      { volume: unit.previous, path: '/previous' },
    ],
    hosts: [],
    live: inside('/live', unit.livePath),
    staged: inside('/staging', unit.stagingPath),
    held: '/previous/held',
  };
}

async function runSwap(context: SwapContext, unit: SwapUnit, op: 'in' | 'back' | 'exists') {
  const where = await layout(context.docker, unit);
  const run = await runInThrowaway(context, {
    image: context.helperImage,
    cmd: [
      'sh',
      '-c',
      SWAP_SCRIPT,
      'swap',
      op,
      where.mode,
      where.live,
      where.staged,
      where.held,
      unit.liveExisted ? 'yes' : 'no',
      ...unit.keep,
    ],
    volumes: where.volumes,
    hosts: where.hosts,
  });
  run.stdout.resume();
  await run.finished;
}

export interface SwapContext extends ThrowawayOwner {
  helperImage: string;
}

/**
 * A unit for `staging`'s data at `stagingPath` replacing `live`'s at `livePath`: its `previous` volume made
 * (labelled with the restore), and whether the live path exists now (an undo then removes what came in).
 */
export async function swapUnit(
  context: SwapContext,
  restoreId: string,
  place: Pick<SwapUnit, 'live' | 'livePath' | 'staging' | 'stagingPath' | 'keep'>,
): Promise<SwapUnit> {
  const previous = await createThrowawayVolume(context, 'previous', restoreId);
  const unit: SwapUnit = { ...place, previous, liveExisted: true };
  const existed = await runSwap(context, unit, 'exists').then(
    () => true,
    () => false,
  );
  return { ...unit, liveExisted: existed };
}

export async function swapIn(context: SwapContext, units: SwapUnit[]): Promise<void> {
  for (const unit of units) {
    await runSwap(context, unit, 'in').catch((error: unknown) => {
      throw new BackupError(
        `Putting the restored data into ${unit.live} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }
}

export async function swapBack(context: SwapContext, units: SwapUnit[]): Promise<void> {
  // The last unit in is the first one out.
  for (const unit of [...units].reverse()) {
    await runSwap(context, unit, 'back').catch((error: unknown) => {
      throw new BackupError(
        `Putting ${unit.live}'s data back as it was failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }
}

/** Removes every volume the restore made: its staged data, and the live data it held. */
export async function discardRestore({ docker, owner }: ThrowawayOwner, restoreId: string): Promise<void> {
  const { Volumes } = await docker.listVolumes({
    filters: { label: [`${THROWAWAY_LABEL}=${owner}`, `${RESTORE_LABEL}=${restoreId}`] },
  });
  for (const volume of Volumes ?? []) await removeThrowawayVolume(docker, volume.Name);
}
