import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Db } from '../infra/db/client.js';
import type { Mailer } from '../infra/mail/mailer.js';
import type { PaypalApi } from '../infra/paypal/paypalApi.js';
import type { UsersRepository } from '../users/usersRepository.js';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { createBillingRepository } from './billingRepository.js';
import { createBillingService } from './billingService.js';
import { createLapses } from './lapses.js';
import { createPaypalCatalog } from './paypalCatalog.js';
import { createPaypalWebhook } from './paypalWebhook.js';

/**
 * Billing, built once by the composition root: `paypal` mode when it passes a PayPal API (credentials
 * configured), `free-beta` otherwise. The deployment engine calls `assertCanDeploy`, `findLapsedWorkspaces` and
 * `confirmWorkspaceStopped`; the routes call the rest.
 */
export function createBillingModule(deps: {
  config: Config;
  db: Db;
  users: UsersRepository;
  workspaces: WorkspacesRepository;
  mailer: Mailer;
  logger: Logger;
  paypal: PaypalApi | undefined;
}) {
  const { config, db, logger, paypal: api } = deps;
  const { webhookId } = config.paypal;
  const repo = createBillingRepository(db);
  const service = createBillingService({
    repo,
    publicUrl: config.publicUrl,
    logger,
    paypal: api ? { api, catalog: createPaypalCatalog({ db, paypal: api }) } : undefined,
  });
  const lapses = createLapses({
    repo,
    workspaces: deps.workspaces,
    users: deps.users,
    mailer: deps.mailer,
    publicUrl: config.publicUrl,
    enforced: service.mode === 'paypal',
  });
  return {
    ...service,
    ...lapses,
    webhook: createPaypalWebhook({ db, paypal: api, webhookId, logger }),
  };
}

export type BillingModule = ReturnType<typeof createBillingModule>;
