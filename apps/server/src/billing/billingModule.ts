import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Db } from '../infra/db/client.js';
import type { Mailer } from '../infra/mail/mailer.js';
import { createPaypalApi } from '../infra/paypal/paypalApi.js';
import { createPaypalClient } from '../infra/paypal/paypalClient.js';
import type { UsersRepository } from '../users/usersRepository.js';
import { createWorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { createBillingRepository } from './billingRepository.js';
import { createBillingService } from './billingService.js';
import { createLapses } from './lapses.js';
import { createPaypalCatalog } from './paypalCatalog.js';
import { createPaypalWebhook } from './paypalWebhook.js';

/**
 * Billing, built once by the composition root: `paypal` mode when PayPal credentials are configured,
 * `free-beta` otherwise. The deployment engine calls `assertCanDeploy`, `findLapsedWorkspaces` and
 * `confirmWorkspaceStopped`; the routes call the rest.
 */
export function createBillingModule(deps: {
  config: Config;
  db: Db;
  users: UsersRepository;
  mailer: Mailer;
  logger: Logger;
}) {
  const { config, db, logger } = deps;
  const { clientId, clientSecret, apiUrl, webhookId } = config.paypal;
  const api =
    clientId && clientSecret
      ? createPaypalApi(createPaypalClient({ apiUrl, clientId, clientSecret }))
      : undefined;
  const repo = createBillingRepository(db);
  const service = createBillingService({
    repo,
    publicUrl: config.publicUrl,
    logger,
    paypal: api ? { api, catalog: createPaypalCatalog({ db, paypal: api }) } : undefined,
  });
  const lapses = createLapses({
    repo,
    workspaces: createWorkspacesRepository(db),
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
