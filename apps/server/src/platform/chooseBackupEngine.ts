import path from 'node:path';
import type Docker from 'dockerode';
import type { Config } from '../config/config.js';
import type { BackupEngine } from '../infra/backup/backupEngine.js';
import { createDockerBackupEngine } from '../infra/backup/dockerBackupEngine.js';

/**
 * The backup engine: restic and this machine's Docker Engine (infra/backup/). What a copy paused or stopped is
 * recorded under DATA_DIR/backups/.held, beside the workspaces' repositories (each named by a workspace id), so
 * a restart after a crash can lift it.
 */
export function chooseBackupEngine(config: Config, docker: Docker): BackupEngine {
  return createDockerBackupEngine(docker, { stateDir: path.join(config.dataDir, 'backups', '.held') });
}
