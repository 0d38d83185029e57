import type { Logger } from 'pino';
import { isUniqueViolation } from '../deployments/deploymentRepository.js';
import type { CertificateEvent, Ingress, ServedCertificate } from '../infra/ingress/ingress.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import {
  after,
  nextIssuingAttempt,
  nextPendingCheck,
  RECHECK_UNANSWERED_MS,
  RECHECK_VERIFIED_MS,
  RETRY_REFUSED_MS,
} from './checkSchedule.js';
import type { CustomDomainRow, CustomDomainsRepository } from './customDomainsRepository.js';
import type { DnsChecks, DnsVerdict } from './dnsChecks.js';
import type { StoredStatus } from './domainStatus.js';
import { type DomainTarget, publicHostOf } from './domainTarget.js';

/** Who asked for a check: the user (Verify: now, and the backoff starts afresh) or the background task. */
export type CheckTrigger = 'verify' | 'background';

/** A claim that has been verified and not released: its route holds it. */
const VERIFIED: StoredStatus[] = ['verified', 'issuing', 'active', 'failed', 'misconfigured'];

const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function refusedCause(domain: string, message: string, retryAfter: Date | undefined): string {
  const said = message.trim().replace(/\.+$/, '');
  const when = retryAfter ? ` It can be asked again after ${utc(retryAfter)}; Slipway will ask then.` : '';
  return `The certificate authority refused ${domain}: ${said}.${when}`;
}

/** Whether the served certificate is the one for `host` (not a default or fallback certificate). */
function covers(certificate: ServedCertificate, host: string): boolean {
  return certificate.names.some((name) => {
    const pattern = name.toLowerCase();
    return (
      pattern === host || (pattern.startsWith('*.') && host.slice(host.indexOf('.')) === pattern.slice(1))
    );
  });
}

/**
 * A custom domain's life: Pending DNS → (its TXT token, target and CAA check out) Verified: its route serves it
 * → Issuing certificate (the proxy is asked for it, which orders it on demand) → Active. A verified domain
 * whose DNS moves away becomes Misconfigured (listed, routed, but refused new certificates) until it checks
 * out again; the CA's refusal makes it Failed, with the CA's message, until it may be asked again.
 */
export function createDomainLifecycle(deps: {
  repository: CustomDomainsRepository;
  workspaces: { findById(id: string): Promise<WorkspaceRow | undefined> };
  dns: DnsChecks;
  ingress: Pick<Ingress, 'setCustomHosts' | 'certificateFor'>;
  addresses: string[];
  logger: Logger;
  now: () => Date;
}) {
  const { repository, logger, now } = deps;

  const targetOf = (row: CustomDomainRow, workspace: WorkspaceRow | undefined): DomainTarget => ({
    host: publicHostOf(workspace?.serviceUrls[row.service]),
    addresses: deps.addresses,
  });

  /**
   * The workspace's route gets exactly its verified domains, in one update. One sync of a workspace at a time,
   * each reading the domains when its turn comes: twenty domains verified at once would otherwise race for the
   * same route (Caddy refuses a write based on a stale read, and an update read before another could land
   * after it, dropping a domain). Another replica's write is caught by Caddy's etag check.
   */
  const syncing = new Map<string, Promise<void>>();
  function syncRoute(workspaceId: string): Promise<void> {
    const previous = syncing.get(workspaceId) ?? Promise.resolve();
    const turn = previous
      .catch(() => undefined)
      .then(async () =>
        deps.ingress.setCustomHosts(workspaceId, await repository.customHostsOf(workspaceId)),
      );
    syncing.set(workspaceId, turn);
    void turn
      .catch(() => undefined)
      .then(() => {
        if (syncing.get(workspaceId) === turn) syncing.delete(workspaceId);
      });
    return turn;
  }

  async function runChecks(row: CustomDomainRow): Promise<DnsVerdict | undefined> {
    const workspace = await deps.workspaces.findById(row.workspaceId);
    if (!workspace) return undefined;
    const target = targetOf(row, workspace);
    const options = { token: row.challengeToken, target, verified: row.verifiedAt !== null };
    if (!workspace.serviceUrls[row.service] || (!target.host && target.addresses.length === 0)) {
      // A stopped workspace keeps its verified names only while their DNS still says they are its own.
      const disowned = row.verifiedAt
        ? await deps.dns.check(row.domain, { ...options, ownershipOnly: true })
        : undefined;
      if (disowned?.outcome === 'fail' && disowned.disowned) return disowned;
      return {
        outcome: 'unknown',
        cause: `${row.service} has no URL now (its workspace is stopped, or it publishes no port): deploy it, then Verify.`,
      };
    }
    return deps.dns.check(row.domain, options);
  }

  /**
   * A verified claim whose DNS no longer shows it is the holder's (the token gone and no CNAME to its own host,
   * or an alias to another service's host): it lapses — unverified, off its route at once, back to Pending DNS —
   * so the name's new owner can prove it, and its visitors no longer reach this workspace. It is verified again
   * once its own records are back (and no one else proved it meanwhile).
   */
  async function lapse(row: CustomDomainRow, cause: string, at: Date): Promise<CustomDomainRow> {
    logger.info(
      { domain: row.domain, cause },
      "a verified custom domain's DNS no longer proves it is its holder's",
    );
    const patch = {
      status: 'pending_dns',
      verifiedAt: null,
      cause: `${row.domain} is no longer served here: its DNS does not show it is this workspace's now. ${cause}`,
      checkedAt: at,
      failedChecks: 0,
      certificateIssuer: null,
      certificateNotAfter: null,
      retryAfter: null,
      nextCheckAt: nextPendingCheck(at, 0),
    };
    const lapsed = await repository.update(row.id, patch, VERIFIED);
    if (!lapsed) return row;
    await syncRoute(row.workspaceId);
    return lapsed;
  }

  /** No verdict: a pending claim says why and backs off; a verified one stays as it is and is asked again soon. */
  async function recordUnanswered(row: CustomDomainRow, cause: string, at: Date, trigger: CheckTrigger) {
    if (row.verifiedAt) {
      return (
        (await repository.update(row.id, { checkedAt: at, nextCheckAt: after(at, RECHECK_UNANSWERED_MS) })) ??
        row
      );
    }
    const failedChecks = trigger === 'verify' ? 0 : row.failedChecks + 1;
    const patch = { cause, checkedAt: at, failedChecks, nextCheckAt: nextPendingCheck(at, failedChecks) };
    return (await repository.update(row.id, patch, ['pending_dns'])) ?? row;
  }

  /** What is wrong, said on the claim: pending stays pending; a verified one becomes Misconfigured. */
  async function recordFailure(row: CustomDomainRow, cause: string, at: Date, trigger: CheckTrigger) {
    // Misconfigured keeps the route: its DNS still proves it is this workspace's (a claim it no longer proves
    // lapses instead); the name only points away from this server, or a CAA record refuses the CA.
    const backingOff = row.status === 'pending_dns' || row.status === 'misconfigured';
    const failedChecks = trigger === 'background' && backingOff ? row.failedChecks + 1 : 0;
    const status = row.verifiedAt ? 'misconfigured' : 'pending_dns';
    if (status === 'misconfigured' && row.status !== 'misconfigured') {
      logger.info({ domain: row.domain, cause }, 'a verified custom domain is misconfigured');
    }
    const patch = {
      status,
      cause,
      checkedAt: at,
      failedChecks,
      nextCheckAt: nextPendingCheck(at, failedChecks),
    };
    return (await repository.update(row.id, patch, row.verifiedAt ? VERIFIED : ['pending_dns'])) ?? row;
  }

  /**
   * Marks the claim verified, unless another workspace's live claim holds the name (then it says so). This claim's
   * records have just checked out, with its own token: the holder's claim is checked again first, at once, so a
   * name whose DNS moved to this workspace is this workspace's within this one check (the holder's lapses).
   */
  async function claim(row: CustomDomainRow, at: Date, trigger: CheckTrigger): Promise<CustomDomainRow> {
    const holder = await repository.findVerified(row.domain);
    if (holder && holder.id !== row.id && holder.status !== 'misconfigured') {
      await recheckHolder(holder);
    }
    try {
      const { row: verified, released } = await repository.markVerified(
        row,
        { verifiedAt: at, status: 'verified', cause: null, checkedAt: at, failedChecks: 0 },
        `Another workspace proved ${row.domain} with its own TXT record while this one's DNS pointed elsewhere: it is no longer served here. Verify it again with this workspace's TXT record, or remove it.`,
      );
      if (released) {
        logger.info({ domain: row.domain }, 'a misconfigured custom domain was proven by another workspace');
        await syncRoute(released.workspaceId).catch((error) =>
          logger.warn(
            { err: error, domain: row.domain },
            'taking a released custom domain off its route failed',
          ),
        );
      }
      return verified;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const failedChecks = trigger === 'verify' ? 0 : row.failedChecks + 1;
      const cause = `${row.domain} was verified by another workspace first: it can be verified here only once it is removed there.`;
      const patch = { cause, checkedAt: at, failedChecks, nextCheckAt: nextPendingCheck(at, failedChecks) };
      return (await repository.update(row.id, patch, ['pending_dns'])) ?? row;
    }
  }

  /**
   * Asks the proxy for the name's certificate (it orders one on demand): Active with its issuer and expiry, or
   * still Issuing, asked again soon. A default certificate that does not cover the name does not count.
   */
  async function issue(row: CustomDomainRow): Promise<CustomDomainRow> {
    let certificate: ServedCertificate | undefined;
    try {
      certificate = await deps.ingress.certificateFor(row.domain);
      if (!covers(certificate, row.domain))
        throw new Error(`the certificate served covers ${certificate.names.join(', ')}`);
    } catch (error) {
      const at = now();
      logger.debug({ err: error, domain: row.domain }, 'no certificate for a custom domain yet');
      const failedChecks = row.failedChecks + 1;
      const patch = { failedChecks, nextCheckAt: nextIssuingAttempt(at, failedChecks) };
      return (await repository.update(row.id, patch, ['issuing'])) ?? row;
    }
    const at = now();
    const patch = {
      status: 'active',
      cause: null,
      retryAfter: null,
      failedChecks: 0,
      certificateIssuer: certificate.issuer,
      certificateNotAfter: certificate.notAfter,
      nextCheckAt: after(at, RECHECK_VERIFIED_MS),
    };
    return (await repository.update(row.id, patch, ['verified', 'issuing', 'failed'])) ?? row;
  }

  /** A verified claim whose DNS checks out: onto the route, and its certificate asked for. */
  async function startIssuing(row: CustomDomainRow, at: Date, trigger: CheckTrigger) {
    await syncRoute(row.workspaceId);
    const patch = {
      status: 'issuing',
      cause: null,
      retryAfter: null,
      checkedAt: at,
      failedChecks: 0,
      nextCheckAt: nextIssuingAttempt(at, 0),
    };
    const issuing = await repository.update(row.id, patch, VERIFIED);
    if (!issuing) return row;
    if (trigger === 'background') return issue(issuing);
    // Verify answers at once; the certificate follows (the background task asks again if this attempt is lost).
    void issue(issuing).catch((error) =>
      logger.warn({ err: error, domain: row.domain }, 'asking for a custom domain certificate failed'),
    );
    return issuing;
  }

  /**
   * Checks a verified claim's DNS now, for another workspace that wants its name, and acts only on a failure (it
   * lapses, or becomes Misconfigured): a claim that checks out is left as it is, its certificate not asked for on
   * the other workspace's time. Answers the claim as it is after; as it was when the DNS could not be asked.
   */
  async function recheckHolder(row: CustomDomainRow): Promise<CustomDomainRow> {
    try {
      const verdict = await runChecks(row);
      if (verdict?.outcome !== 'fail') return row;
      const at = now();
      return verdict.disowned
        ? await lapse(row, verdict.cause, at)
        : await recordFailure(row, verdict.cause, at, 'background');
    } catch (error) {
      logger.warn({ err: error, domain: row.domain }, 'checking the holder of a custom domain again failed');
      return row;
    }
  }

  /** Checks the claim's DNS now and moves it along its life; answers the claim as it is then. */
  async function checkDns(row: CustomDomainRow, trigger: CheckTrigger): Promise<CustomDomainRow> {
    const at = now();
    const verdict = await runChecks(row);
    if (!verdict) return row;
    if (verdict.outcome === 'unknown') return recordUnanswered(row, verdict.cause, at, trigger);
    if (verdict.outcome === 'fail') {
      if (row.verifiedAt && verdict.disowned) return lapse(row, verdict.cause, at);
      return recordFailure(row, verdict.cause, at, trigger);
    }
    const verified = row.verifiedAt ? row : await claim(row, at, trigger);
    if (!verified.verifiedAt) return verified;
    if (verified.status === 'active') {
      const patch = {
        cause: null,
        checkedAt: at,
        failedChecks: 0,
        nextCheckAt: after(at, RECHECK_VERIFIED_MS),
      };
      return (await repository.update(verified.id, patch, ['active'])) ?? verified;
    }
    if (verified.status === 'failed' && verified.retryAfter && verified.retryAfter > at) {
      const patch = { checkedAt: at, nextCheckAt: verified.retryAfter };
      return (await repository.update(verified.id, patch, ['failed'])) ?? verified;
    }
    return startIssuing(verified, at, trigger);
  }

  return {
    syncRoute,

    /** Checks the claim now (an Issuing one in the background: its certificate) and moves it along its life. */
    async check(row: CustomDomainRow, trigger: CheckTrigger): Promise<CustomDomainRow> {
      if (trigger === 'background' && row.status === 'issuing') return issue(row);
      return checkDns(row, trigger);
    },

    recheckHolder,

    /** What the proxy said about a certificate: Failed with the CA's words, or Active once obtained. */
    async onCertificateEvent(event: CertificateEvent) {
      for (const row of await repository.listVerifiedFor(event.host)) {
        if (event.kind === 'obtained') {
          if (['verified', 'issuing', 'failed'].includes(row.status)) await issue(row);
          continue;
        }
        logger.info({ domain: row.domain, message: event.message }, 'the CA refused a custom domain');
        const patch = {
          status: 'failed',
          cause: refusedCause(row.domain, event.message, event.retryAfter),
          retryAfter: event.retryAfter ?? null,
          nextCheckAt: event.retryAfter ?? after(now(), RETRY_REFUSED_MS),
        };
        await repository.update(row.id, patch, ['verified', 'issuing', 'active', 'failed']);
      }
    },
  };
}

export type DomainLifecycle = ReturnType<typeof createDomainLifecycle>;
