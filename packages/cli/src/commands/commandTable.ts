import type { CommandName, Invocation } from '../commandLine.js';
import { login, logout, whoami } from './account.js';
import { backupsCreate, backupsKey, backupsList, backupsRestore } from './backups.js';
import type { CommandContext } from './commandContext.js';
import { deploy, rollback } from './deployments.js';
import { envImport, envList, envSet, envUnset } from './envVariables.js';
import { logs } from './logs.js';
import { deleteWorkspace, status, workspaces } from './workspaces.js';

type Handler<N extends CommandName> = (
  ctx: CommandContext,
  args: Extract<Invocation, { command: N }>,
) => Promise<number>;

/** One handler per command of the command line: a command without one fails `tsc`. */
export const COMMANDS: { [N in CommandName]: Handler<N> } = {
  login,
  logout,
  whoami,
  workspaces,
  deploy,
  status,
  logs,
  rollback,
  'env list': envList,
  'env set': envSet,
  'env unset': envUnset,
  'env import': envImport,
  delete: deleteWorkspace,
  'backups list': backupsList,
  'backups create': backupsCreate,
  'backups restore': backupsRestore,
  'backups key': backupsKey,
};
