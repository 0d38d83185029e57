import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Ingress } from '../infra/ingress/ingress.js';
import type { KeyValueStore } from '../infra/kv/keyValueStore.js';
import { scheduledWhileLeaseHeld } from '../scheduling/scheduledTask.js';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { CustomDomainsRepository } from './customDomainsRepository.js';
import { createCustomDomainsService } from './customDomainsService.js';
import { createDnsChecks } from './dnsChecks.js';
import { createDnsLookups } from './dnsLookups.js';
import { createDomainLifecycle } from './domainLifecycle.js';
import type { ServableNames } from './servableNames.js';

/** Claims checked per run of the background task; the rest wait for the next run, the longest waiting first. */
const BATCH = 25;

/**
 * Custom domains, assembled: the service the routes call, the lifecycle that moves claims along, the answers
 * to the proxy's certificate events, and ONE background task (in the replica holding its lease) that checks
 * the claims whose time has come. The repository comes from the platform, which also hands its
 * `customHostsOf` to the ingress (the routes it restores include them).
 */
export function createCustomDomainsModule(deps: {
  config: Pick<Config, 'ingress'>;
  store: { repository: CustomDomainsRepository; servableNames: ServableNames };
  ingress: Ingress;
  workspaces: Pick<WorkspacesRepository, 'findOwned' | 'findById'>;
  kv: KeyValueStore;
  logger: Logger;
  now?: () => Date;
  /** Milliseconds a DNS server has to answer one question (tests shorten it). */
  dnsTimeoutMs?: number;
}) {
  const now = deps.now ?? (() => new Date());
  const { repository, servableNames } = deps.store;
  const { ingress: settings } = deps.config;
  const logger = deps.logger.child({ component: 'custom-domains' });
  const lookups = createDnsLookups({
    servers: settings.dnsServers,
    ...(deps.dnsTimeoutMs ? { timeoutMs: deps.dnsTimeoutMs } : {}),
  });
  const lifecycle = createDomainLifecycle({
    repository,
    workspaces: deps.workspaces,
    dns: createDnsChecks({
      lookups,
      caaIdentities: settings.acme.caaIdentities,
      platformDomain: settings.publicDomain,
    }),
    ingress: deps.ingress,
    addresses: settings.addresses,
    logger,
    now,
  });
  const service = createCustomDomainsService({
    repository,
    servableNames,
    lifecycle,
    workspaces: deps.workspaces,
    ingress: deps.ingress,
    config: settings,
    now,
  });

  /** One batch of the claims whose check is due; answers how many were checked. */
  async function runDueChecks(): Promise<number> {
    const due = await repository.listDue(now(), BATCH);
    await Promise.all(
      due.map((row) =>
        lifecycle
          .check(row, 'background')
          .catch((error) =>
            logger.warn({ err: error, domain: row.domain }, 'checking a custom domain failed'),
          ),
      ),
    );
    return due.length;
  }

  const checks = scheduledWhileLeaseHeld('custom-domain-checks', { kv: deps.kv, logger, task: runDueChecks });
  const unsubscribe = deps.ingress.onCertificateEvent((event) => {
    lifecycle
      .onCertificateEvent(event)
      .catch((error) =>
        logger.warn({ err: error, host: event.host }, 'recording a certificate event failed'),
      );
  });

  return {
    service,
    lifecycle,
    runDueChecks,
    /** Starts the background checks (main.ts; tests drive `runDueChecks` themselves). */
    start: () => checks.start(),
    /** Claims changed by any replica reach this one's permission answers (the platform starts it). */
    listen: () => servableNames.start(),
    async stop() {
      unsubscribe();
      await checks.stop();
      await servableNames.stop();
    },
  };
}

export type CustomDomainsModule = ReturnType<typeof createCustomDomainsModule>;
