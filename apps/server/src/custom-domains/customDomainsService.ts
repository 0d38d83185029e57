import { randomBytes } from 'node:crypto';
import {
  type AddDomain,
  addDomainSchema,
  type CustomDomain,
  MAX_DOMAINS_PER_WORKSPACE,
  normaliseDomain,
} from '@slipway/contract';
import { isUniqueViolation } from '../deployments/deploymentRepository.js';
import { DomainError, notFound } from '../domain/errors.js';
import type { Ingress } from '../infra/ingress/ingress.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import { nextPendingCheck } from './checkSchedule.js';
import type { CustomDomainRow, CustomDomainsRepository } from './customDomainsRepository.js';
import type { DomainLifecycle } from './domainLifecycle.js';
import { companionOf, type DomainTarget, publicHostOf } from './domainTarget.js';
import { presentDomain } from './presenter.js';
import type { ServableNames } from './servableNames.js';

const unprocessable = (message: string) => new DomainError('unprocessable', message);
const conflict = (message: string) => new DomainError('conflict', message);
const domainNotFound = (domain: string, workspace: string) =>
  new DomainError('not_found', `${domain} is not a domain of ${workspace}`);

/** A claim's TXT token: 32 random bytes, base64url. */
const newChallengeToken = () => randomBytes(32).toString('base64url');

/**
 * Workspace Settings → Domains, for the workspace's owner: add a domain for one of its services that has a URL,
 * list, Verify, remove; and the permission Caddy asks before it orders a certificate.
 */
export function createCustomDomainsService(deps: {
  repository: CustomDomainsRepository;
  servableNames: Pick<ServableNames, 'has'>;
  lifecycle: DomainLifecycle;
  workspaces: Pick<WorkspacesRepository, 'findOwned'>;
  ingress: Pick<Ingress, 'servesCustomDomains' | 'setCustomHosts'>;
  config: { publicDomain: string | undefined; addresses: string[]; httpsPort: number };
  now: () => Date;
}) {
  const { repository, config } = deps;
  const platformDomain = config.publicDomain?.toLowerCase().replace(/\.$/, '');

  const targetOf = (workspace: WorkspaceRow, service: string): DomainTarget => ({
    host: publicHostOf(workspace.serviceUrls[service]),
    addresses: config.addresses,
  });
  const present = (workspace: WorkspaceRow, row: CustomDomainRow): CustomDomain =>
    presentDomain(row, { target: targetOf(workspace, row.service), httpsPort: config.httpsPort });

  /** Names the platform answers itself, which no workspace may claim. */
  function refuseReservedName(domain: string) {
    if (domain === 'localhost' || domain.endsWith('.localhost')) {
      throw unprocessable(
        `${domain} is a local name (.localhost): a custom domain must be a public DNS name.`,
      );
    }
    if (platformDomain && (domain === platformDomain || domain.endsWith(`.${platformDomain}`))) {
      throw unprocessable(
        `${domain} is under this platform's own domain ${platformDomain}: its services already have names there; add a domain of your own.`,
      );
    }
  }

  function refuseServiceWithoutTarget(workspace: WorkspaceRow, service: string) {
    const withUrls = Object.keys(workspace.serviceUrls).sort();
    if (!workspace.serviceUrls[service]) {
      throw unprocessable(
        withUrls.length === 0
          ? `No service of ${workspace.name} has a URL: deploy it (with a service that publishes a port) before adding a domain.`
          : `${service} has no URL in ${workspace.name}: a domain can serve ${withUrls.join(', ')}.`,
      );
    }
    const target = targetOf(workspace, service);
    if (!target.host && target.addresses.length === 0) {
      throw unprocessable(
        'This server has no public host name or address for a domain to point at: set PUBLIC_DOMAIN or INGRESS_ADDRESSES.',
      );
    }
  }

  /**
   * A live claim of another workspace on `name` (a Misconfigured one can be proven anew by the name's owner). The
   * holder's DNS is checked again first: a name whose DNS moved away from it lapses there and is free here at once.
   */
  async function heldElsewhere(name: string, workspaceId: string) {
    const live = (row: CustomDomainRow | undefined) =>
      row?.verifiedAt && row.workspaceId !== workspaceId && row.status !== 'misconfigured' ? row : undefined;
    const holder = live(await repository.findVerified(name));
    return holder && live(await deps.lifecycle.recheckHolder(holder));
  }

  async function refuseTakenName(domain: string, redirectWww: boolean, workspace: WorkspaceRow) {
    const inUse = (name: string) =>
      conflict(
        `${name} is already in use by another workspace: it can be added here once it is removed there.`,
      );
    if (await heldElsewhere(domain, workspace.id)) throw inUse(domain);
    const companion = companionOf(domain);
    const companionHolder = await heldElsewhere(companion, workspace.id);
    if (companionHolder && (redirectWww || companionHolder.redirectWww)) throw inUse(companion);
  }

  async function ownedClaim(user: { id: string }, name: string, domain: string) {
    const workspace = await deps.workspaces.findOwned(user.id, name);
    const row = await repository.find(workspace.id, domain);
    if (!row) throw domainNotFound(domain, name);
    return { workspace, row };
  }

  return {
    async list(user: { id: string }, name: string): Promise<CustomDomain[]> {
      const workspace = await deps.workspaces.findOwned(user.id, name);
      return (await repository.listForWorkspace(workspace.id)).map((row) => present(workspace, row));
    },

    async add(user: { id: string }, name: string, input: AddDomain): Promise<CustomDomain> {
      const { domain, service, redirect_www: redirectWww } = addDomainSchema.parse(input);
      if (!deps.ingress.servesCustomDomains) {
        throw unprocessable(
          'Custom domains need the HTTPS ingress (Caddy), which this server does not run: set CADDY_ADMIN_URL.',
        );
      }
      const workspace = await deps.workspaces.findOwned(user.id, name);
      refuseReservedName(domain);
      refuseServiceWithoutTarget(workspace, service);
      if (await repository.find(workspace.id, domain))
        throw conflict(`${domain} is already a domain of ${name}.`);
      if ((await repository.countForWorkspace(workspace.id)) >= MAX_DOMAINS_PER_WORKSPACE) {
        throw unprocessable(
          `${name} has ${MAX_DOMAINS_PER_WORKSPACE} domains, the most a workspace can have: remove one first.`,
        );
      }
      await refuseTakenName(domain, redirectWww, workspace);
      try {
        const row = await repository.insert({
          workspaceId: workspace.id,
          domain,
          service,
          redirectWww,
          challengeToken: newChallengeToken(),
          nextCheckAt: nextPendingCheck(deps.now(), 0),
        });
        return present(workspace, row);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`${domain} is already a domain of ${name}.`);
        throw error;
      }
    },

    /** Checks the DNS now: the claim with its status and, when it is not verified, the cause. */
    async verify(user: { id: string }, name: string, domain: string): Promise<CustomDomain> {
      const { workspace, row } = await ownedClaim(user, name, domain);
      return present(workspace, await deps.lifecycle.check(row, 'verify'));
    },

    /**
     * Forgotten first (the permission endpoint refuses it from then on), then off the route: the workspace's
     * route is synced with the domains that remain, in one update.
     */
    async remove(user: { id: string }, name: string, domain: string) {
      const { workspace, row } = await ownedClaim(user, name, domain);
      await repository.delete(workspace.id, domain);
      if (row.verifiedAt) await deps.lifecycle.syncRoute(workspace.id);
      return { success: true as const, message: `${domain} removed from ${name}` };
    },

    /**
     * Caddy's question before it orders a certificate: yes only for a verified domain whose DNS checks out,
     * asked exactly in its normalised form (or the `www` companion of one that redirects). Anything else is
     * "not found": an IP, an unknown name, an upper-case or trailing-dot variant.
     */
    async tlsPermission(domain: string): Promise<{ allowed: true }> {
      if (normaliseDomain(domain) !== domain || !(await deps.servableNames.has(domain))) throw notFound();
      return { allowed: true };
    },
  };
}

export type CustomDomainsService = ReturnType<typeof createCustomDomainsService>;
