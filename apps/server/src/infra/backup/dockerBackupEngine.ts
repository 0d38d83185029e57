import { createHash } from 'node:crypto';
import path from 'node:path';
import type { BackupMethod } from '@slipway/contract';
import type Docker from 'dockerode';
import type {
  BackupEngine,
  PartResult,
  ResticRepository,
  ServiceData,
  Verification,
} from './backupEngine.js';
import { BackupError } from './backupEngine.js';
import { filesParts } from './filesParts.js';
import { mongoParts } from './mongoParts.js';
import { mysqlParts } from './mysqlParts.js';
import type { EngineContext, PartMethod } from './partMethod.js';
import { postgresParts } from './postgresParts.js';
import { describeProjectData } from './projectData.js';
import { redisParts } from './redisParts.js';
import { ResticCli } from './resticRepository.js';
import { resumeInterrupted } from './servicesHeld.js';
import { producerError } from './streamedPart.js';
import { DEFAULT_HELPER_IMAGE } from './throwawayContainers.js';

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
  /** Records of containers a copy paused or stopped, read again at start (e.g. DATA_DIR/backups/.held). */
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
  return {
    openRepository: (location, password) => new ResticCli(location, password),
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
    restorePart: async (repo, data, part) => {
      if (data.method !== part.method) {
        throw new BackupError(
          `${part.service} is backed up as ${part.method} but now runs as ${data.method}`,
        );
      }
      return method(part)
        .restore(context, repo, data, part)
        .catch((error: unknown) => {
          throw producerError(`Restoring ${part.service}`, error);
        });
    },
    resumeInterrupted: () => resumeInterrupted(docker, options.stateDir, context.owner),
  };
}
