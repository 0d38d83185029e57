import path from 'node:path';
import type { Redis } from 'ioredis';
import type { SessionManager } from '../auth/sessions.js';
import type { Config } from '../config/config.js';
import type { DeploymentRepository } from '../deployments/deploymentRepository.js';
import type { ContainerMonitor } from '../infra/cadvisor/containerMonitor.js';
import type { Db } from '../infra/db/client.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import type { Mailer } from '../infra/mail/mailer.js';
import type { UsersRepository } from '../users/usersRepository.js';
import type { VmRepository } from '../vm-providers/vmRepository.js';
import { createWorkspaceInventory } from '../workspaces/workspaceInventory.js';
import { createAdminAccess } from './adminAccess.js';
import { createAuditLogReader } from './auditLog.js';
import { createCacheAdmin } from './cacheAdmin.js';
import { withContainerOwners } from './containerMonitoringPresenter.js';
import { createImpersonation } from './impersonation.js';
import { type AdminVmOperations, createInventoryService } from './inventoryService.js';
import { createSystemLogs } from './systemLogs.js';
import { createUserAdminService } from './userAdminService.js';

/** Everything the admin panel needs, built once by the composition root. */
export function createAdminModule(deps: {
  config: Config;
  adminPassword: string;
  db: Db;
  kv: KeyValueStore;
  redis: Redis | undefined;
  mailer: Mailer;
  sessions: SessionManager;
  users: UsersRepository;
  vms: VmRepository;
  deployments: DeploymentRepository;
  /** cAdvisor's or the Docker Engine's readings, as the platform chose. */
  containerMonitor: ContainerMonitor;
  /** Lent by the VM providers (engine) when they exist: live VM state and VM teardown. */
  vmOperations?: AdminVmOperations;
}) {
  const { config, db, kv } = deps;
  const logDir = path.join(config.dataDir, 'logs');
  // Kept by reference: the composition root may attach the engine's operations after building this.
  const vmOperations: AdminVmOperations = deps.vmOperations ?? {};
  const workspaces = createWorkspaceInventory(db, deps.users);
  return {
    logDir,
    vmOperations,
    access: createAdminAccess({ kv, adminPassword: deps.adminPassword }),
    users: createUserAdminService({
      db,
      users: deps.users,
      mailer: deps.mailer,
      publicUrl: config.publicUrl,
    }),
    inventory: createInventoryService({
      users: deps.users,
      vms: deps.vms,
      deployments: deps.deployments,
      workspaces,
      vmOperations,
    }),
    logs: createSystemLogs({ logDir }),
    auditLog: createAuditLogReader({ db }),
    cache: createCacheAdmin({ redis: deps.redis, kv, db, sessions: deps.sessions }),
    impersonation: createImpersonation({
      db,
      kv,
      sessions: deps.sessions,
      users: deps.users,
      publicUrl: config.publicUrl,
    }),
    monitor: withContainerOwners(deps.containerMonitor, workspaces),
  };
}

export type AdminModule = ReturnType<typeof createAdminModule>;
