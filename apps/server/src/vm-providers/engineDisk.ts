import { statfs } from 'node:fs/promises';
import type Docker from 'dockerode';

/** Where the engine keeps its images, containers and build cache (`docker info`'s DockerRootDir). */
export async function engineRootDir(docker: Docker): Promise<string | undefined> {
  const info = (await docker.info().catch(() => undefined)) as { DockerRootDir?: string } | undefined;
  return info?.DockerRootDir || undefined;
}

/**
 * Free bytes on the engine's disk when the engine runs on this machine: its root directory's file system, or
 * (a rootless or containerised engine whose directory this process cannot see) undefined.
 */
export async function localFreeBytes(docker: Docker): Promise<number | undefined> {
  const dir = await engineRootDir(docker);
  if (!dir) return undefined;
  const stats = await statfs(dir).catch(() => undefined);
  return stats ? stats.bavail * stats.bsize : undefined;
}
