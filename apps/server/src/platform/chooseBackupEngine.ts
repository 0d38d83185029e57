import path from 'node:path';
import type Docker from 'dockerode';
import type { BackupEngine } from '../backups/engine/backupEngine.js';
import { createDockerBackupEngine } from '../backups/engine/dockerBackupEngine.js';
import type { Config } from '../config/config.js';

/**
 * The backup engine: restic and this machine's Docker Engine (infra/backup/). What a copy paused or stopped is
 * recorded under DATA_DIR/backups/.held, beside the workspaces' repositories (each named by a workspace id), so
 * a restart after a crash can lift it.
 */
export function chooseBackupEngine(config: Config, docker: Docker): BackupEngine {
  return createDockerBackupEngine(docker, { stateDir: path.join(config.dataDir, 'backups', '.held') });
}
