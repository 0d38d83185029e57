import type { CaaRecord } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { canonicalName, type DnsLookups, DnsUnavailable } from './dnsLookups.js';
import { challengeName, type DomainTarget, pointingInstruction, targetDescription } from './domainTarget.js';

/**
 * A check's outcome: every record in place; or what is wrong, in sentences a user can act on; or no verdict,
 * because a question went unanswered (a resolver's timeout says nothing about the domain).
 */
export type DnsVerdict =
  | { outcome: 'pass' }
  | { outcome: 'fail'; cause: string }
  | { outcome: 'unknown'; cause: string };

/** CNAMEs followed at most; a longer chain is a loop or a mistake. */
const MAX_CHAIN = 8;

const UNANSWERED: Record<string, string> = {
  ETIMEOUT: 'the DNS server did not answer in time',
  ESERVFAIL:
    "its name servers answered with an error (SERVFAIL); if this lasts, check the domain's name servers and DNSSEC at its DNS provider",
  EREFUSED: 'the DNS server refused the question (REFUSED)',
  ECONNREFUSED: 'the DNS server could not be reached',
};

export function unansweredCause(domain: string, error: DnsUnavailable): string {
  const reason = UNANSWERED[error.code] ?? `the DNS lookup of ${error.queried} failed (${error.code})`;
  return `The DNS records of ${domain} could not be checked: ${reason}. Slipway will try again.`;
}

/** The issuer domain of a CAA `issue` value (`letsencrypt.org; validationmethods=http-01`); '' allows none. */
const issuerOf = (value: string) => canonicalName(value.split(';')[0]!.trim());

const listed = (names: string[], conjunction: 'and' | 'or') =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)}`;

/**
 * The DNS checks of a custom domain, each failure said as what to change:
 * - ownership: a TXT record `_slipway-challenge.{domain}` holding the claim's token (any of several records);
 * - the target: the name's CNAME chain reaches the service's own host, or its addresses are all this server's
 *   (INGRESS_ADDRESSES) or the service host's own (so an apex with CNAME flattening passes);
 * - CAA (RFC 8659): the first CAA set found climbing from the name to its parents allows the ACME CA.
 */
export function createDnsChecks(deps: { lookups: DnsLookups; caaIdentities: string[] }) {
  const { lookups } = deps;
  const identities = deps.caaIdentities.map(canonicalName);

  async function checkOwnership(domain: string, token: string): Promise<string | undefined> {
    const name = challengeName(domain);
    const values = await lookups.txt(name);
    if (values.includes(token)) return undefined;
    return values.length === 0
      ? `The TXT record ${name} is missing: add it with the value ${token}.`
      : `The TXT record ${name} has a different value: set it to ${token}.`;
  }

  async function cnameChain(domain: string): Promise<string[]> {
    const chain: string[] = [];
    for (let name = domain; chain.length < MAX_CHAIN; ) {
      const next = await lookups.cname(name);
      if (!next || chain.includes(next)) break;
      chain.push(next);
      name = next;
    }
    return chain;
  }

  async function checkTarget(domain: string, target: DomainTarget): Promise<string | undefined> {
    const chain = await cnameChain(domain);
    if (target.host && chain.includes(target.host)) return undefined;
    const addresses = await lookups.addresses(domain);
    if (chain.length === 0 && addresses.length === 0) {
      return `No DNS record for ${domain} yet: add ${pointingInstruction(target)}.`;
    }
    if (addresses.length > 0) {
      const ours = new BlockList();
      const allow = (address: string) => ours.addAddress(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
      target.addresses.filter((address) => isIP(address) !== 0).forEach(allow);
      const allOurs = () =>
        addresses.every((address) => ours.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4'));
      if (!allOurs() && target.host) (await lookups.addresses(target.host)).forEach(allow);
      if (allOurs()) return undefined;
    }
    const found =
      chain.length > 0
        ? `${chain[0]}${addresses.length > 0 ? ` (${addresses.join(', ')})` : ''}`
        : addresses.join(', ');
    return `${domain} points to ${found}, not to ${targetDescription(target)}: change its record to ${pointingInstruction(target)}.`;
  }

  /** The first CAA set climbing from `domain` towards the root, and where it was found. */
  async function relevantCaa(domain: string): Promise<{ name: string; records: CaaRecord[] } | undefined> {
    const labels = domain.split('.');
    for (let i = 0; i < labels.length; i++) {
      const name = labels.slice(i).join('.');
      const records = await lookups.caa(name);
      if (records.length > 0) return { name, records };
    }
    return undefined;
  }

  async function checkCaa(domain: string): Promise<string | undefined> {
    const found = await relevantCaa(domain);
    const issue = found?.records.flatMap((record) => (record.issue === undefined ? [] : [record.issue]));
    if (!found || !issue || issue.length === 0) return undefined;
    const issuers = [...new Set(issue.map(issuerOf).filter(Boolean))];
    if (issuers.some((issuer) => identities.includes(issuer))) return undefined;
    const allowed = issuers.length === 0 ? 'no one' : `only ${listed(issuers, 'and')}`;
    return `A CAA record on ${found.name} allows ${allowed} to issue certificates: add ${listed(identities, 'or')}.`;
  }

  return {
    /**
     * Every check of `domain` at once; `token` omitted once the claim is verified (the TXT record may go then).
     * Failures are reported together, so one round of DNS changes can fix them all.
     */
    async check(
      domain: string,
      options: { token?: string | undefined; target: DomainTarget },
    ): Promise<DnsVerdict> {
      const checks = [
        ...(options.token === undefined ? [] : [checkOwnership(domain, options.token)]),
        checkTarget(domain, options.target),
        checkCaa(domain),
      ];
      const results = await Promise.allSettled(checks);
      const causes = results.flatMap((result) =>
        result.status === 'fulfilled' && result.value ? [result.value] : [],
      );
      if (causes.length > 0) return { outcome: 'fail', cause: causes.join(' ') };
      const unanswered = results.find((result) => result.status === 'rejected');
      if (unanswered) {
        const error = (unanswered as PromiseRejectedResult).reason;
        if (error instanceof DnsUnavailable)
          return { outcome: 'unknown', cause: unansweredCause(domain, error) };
        throw error;
      }
      return { outcome: 'pass' };
    },
  };
}

export type DnsChecks = ReturnType<typeof createDnsChecks>;
