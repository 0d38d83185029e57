import type { Config } from '../config/config.js';
import { type BackupEngine, BackupError } from '../infra/backup/backupEngine.js';

/**
 * The backup engine (restic and this machine's Docker Engine, infra/backup/), loaded only when a backup first
 * needs it, so a server that never backs up never imports it.
 */
export function chooseBackupEngine(_config: Config): BackupEngine {
  const unavailable = () => new BackupError('The backup engine is not available in this build of Slipway.');
  const missing = () => Promise.reject(unavailable());
  return {
    openRepository: () => {
      throw unavailable();
    },
    describeProjectData: missing,
    backUpService: missing,
    verifyPart: missing,
    restorePart: missing,
    resumeInterrupted: async () => [],
  };
}
