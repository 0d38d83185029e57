import { createHash } from 'node:crypto';
import path from 'node:path';
import type { BackupMethod } from '@slipway/contract';
import type Docker from 'dockerode';
import { countOf } from '../../domain/countOf.js';
import { DEFAULT_HELPER_IMAGE, restoresWithVolumes } from '../../infra/docker/throwawayContainers.js';
import { ResticCli } from '../../infra/restic/resticCli.js';
import { stopLeftoverProcesses } from '../../infra/restic/resticProcesses.js';
import type { ResticRepository } from '../../infra/restic/resticRepository.js';
import type { BackupEngine, PartResult, ServiceData, Verification } from './backupEngine.js';
import { BackupError } from './backupEngine.js';
import { filesParts } from './filesParts.js';
import { mongoParts } from './mongoParts.js';
import { mysqlParts } from './mysqlParts.js';
import type { EngineContext, PartMethod } from './partMethod.js';
import { postgresParts } from './postgresParts.js';
import { describeProjectData } from './projectData.js';
import { redisParts } from './redisParts.js';
import { resumeInterrupted } from './servicesHeld.js';
import { producerError, readBackFile } from './streamedPart.js';
import { discardRestore, swapBack, swapIn } from './volumeSwap.js';

const METHODS = {
  postgres: postgresParts,
  mysql: mysqlParts,
  mongodb: mongoParts,
  redis: redisParts,
  files: filesParts,
} satisfies Record<BackupMethod, PartMethod>;

/** The data directory names the server: its throwaways are found again by its next start, and only by it. */
export const throwawayOwnerOf = (stateDir: string) =>
  createHash('sha256').update(path.resolve(stateDir)).digest('hex').slice(0, 16);

export interface DockerBackupEngineOptions {
  /**
   * This server's own records, read again at start (e.g. DATA_DIR/backups/.held): containers a copy paused or
   * stopped, and the restic processes running (its `restic` subfolder).
   */
  stateDir: string;
  /** The image whose busybox tools read and write volumes; `busybox:1.36` by default. */
  helperImage?: string;
}

/** The backup engine on one Docker Engine: dumps and copies into restic, verified in throwaway containers. */
export function createDockerBackupEngine(docker: Docker, options: DockerBackupEngineOptions): BackupEngine {
  const context: EngineContext = {
    docker,
    owner: throwawayOwnerOf(options.stateDir),
    stateDir: options.stateDir,
    helperImage: options.helperImage ?? DEFAULT_HELPER_IMAGE,
  };
  const method = (data: ServiceData | PartResult): PartMethod => METHODS[data.method];
  const resticDir = path.join(options.stateDir, 'restic');
  return {
    openRepository: (location, password) => new ResticCli(location, password, { runtimeDir: resticDir }),
    describeProjectData: (projectName) => describeProjectData(docker, projectName),
    backUpService: (repo: ResticRepository, data: ServiceData, tags: string[]) =>
      method(data)
        .backUp(context, repo, data, tags)
        .catch((error: unknown) => {
          throw producerError(`Backing up ${data.service}`, error);
        }),
    verifyPart: async (repo, data, part): Promise<Verification> => {
      try {
        return await method(part).verify(context, repo, data, part);
      } catch (error) {
        return { ok: false, reason: error instanceof Error ? error.message : String(error) };
      }
    },
    readBack: async (repo, part): Promise<Verification> => {
      try {
        const bytes = await readBackFile(repo, part.snapshotId, method(part).file(part.service), part.sha256);
        return {
          ok: true,
          checked: `${countOf(bytes, 'byte')} read back${part.sha256 ? ', identical' : ''}`,
        };
      } catch (error) {
        return { ok: false, reason: error instanceof Error ? error.message : String(error) };
      }
    },
    stagePart: async (repo, data, part, restoreId) => {
      if (data.method !== part.method) {
        throw new BackupError(
          `${part.service} is backed up as ${part.method} but now runs as ${data.method}: nothing was changed.`,
        );
      }
      return method(part)
        .stage(context, repo, data, part, restoreId)
        .catch((error: unknown) => {
          throw producerError(`Reading the backup of ${part.service}`, error);
        });
    },
    swapIn: (units) => swapIn(context, units),
    swapBack: (units) => swapBack(context, units),
    discardRestore: (restoreId) => discardRestore(context, restoreId),
    restoresWithVolumes: () => restoresWithVolumes(context),
    checkLive: async (data, part): Promise<Verification> => {
      try {
        return await method(part).checkLive(context, data, part);
      } catch (error) {
        return { ok: false, reason: error instanceof Error ? error.message : String(error) };
      }
    },
    resumeInterrupted: async () => {
      await stopLeftoverProcesses(resticDir);
      return resumeInterrupted(docker, options.stateDir, context.owner);
    },
  };
}
