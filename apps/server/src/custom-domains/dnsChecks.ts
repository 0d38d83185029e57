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
  /** `disowned`: a verified claim's DNS no longer proves it is the holder's (its claim lapses). */
  | { outcome: 'fail'; cause: string; disowned: boolean }
  | { outcome: 'unknown'; cause: string };

/** One check's finding: what to change, and whether it says the name is no longer the holder's. */
interface Finding {
  cause: string;
  disowned?: boolean;
}

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
 * - ownership: a TXT record `_slipway-challenge.{domain}` holding the claim's token (any of several records). A
 *   verified claim is proven again at every check, by its token or by a CNAME chain to its own service host:
 *   every host of the platform resolves to the same ingress, so "its addresses are ours" says nothing about
 *   which workspace the name's owner means (security brief: proof that every tenant can give is no proof);
 * - the target: the name's CNAME chain reaches the service's own host, or its addresses are all this server's
 *   (INGRESS_ADDRESSES) or the service host's own (so an apex with CNAME flattening passes) — but a chain through
 *   another host of the platform (under PUBLIC_DOMAIN) is another workspace's service, whatever its addresses;
 * - CAA (RFC 8659): the first CAA set found climbing from the name to its parents allows the ACME CA.
 * A verified claim that fails ownership, or whose chain reaches another service's host, is `disowned`.
 */
export function createDnsChecks(deps: {
  lookups: DnsLookups;
  caaIdentities: string[];
  /** PUBLIC_DOMAIN: the names under it are the platform's own service hosts. */
  platformDomain?: string | undefined;
}) {
  const { lookups } = deps;
  const identities = deps.caaIdentities.map(canonicalName);
  const platformDomain = deps.platformDomain ? canonicalName(deps.platformDomain) : undefined;
  const onPlatform = (name: string) =>
    platformDomain !== undefined && (name === platformDomain || name.endsWith(`.${platformDomain}`));

  async function checkOwnership(
    domain: string,
    token: string,
    proof: { verified: boolean; chain: Promise<string[]>; host: string | undefined },
  ): Promise<Finding | undefined> {
    const name = challengeName(domain);
    const values = await lookups.txt(name);
    if (values.includes(token)) return undefined;
    // A verified name whose alias still leads to the holder's own host is the holder's: the token may go.
    if (proof.verified && proof.host && (await proof.chain).includes(proof.host)) return undefined;
    const cause =
      values.length === 0
        ? `The TXT record ${name} is missing: add it with the value ${token}.`
        : `The TXT record ${name} has a different value: set it to ${token}.`;
    return { cause, disowned: proof.verified };
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

  async function checkTarget(
    domain: string,
    target: DomainTarget,
    chained: Promise<string[]>,
  ): Promise<Finding | undefined> {
    const chain = await chained;
    if (target.host && chain.includes(target.host)) return undefined;
    const addresses = await lookups.addresses(domain);
    if (chain.length === 0 && addresses.length === 0) {
      return { cause: `No DNS record for ${domain} yet: add ${pointingInstruction(target)}.` };
    }
    const elsewhere = chain.find(onPlatform);
    if (addresses.length > 0 && !elsewhere) {
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
    const cause = `${domain} points to ${found}, not to ${targetDescription(target)}: change its record to ${pointingInstruction(target)}.`;
    return { cause, disowned: elsewhere !== undefined };
  }

  /** Without a host of its own to point at: a chain through another service's host is that service's. */
  function disownedBy(domain: string, chain: string[]): Finding | undefined {
    const elsewhere = chain.find(onPlatform);
    return elsewhere
      ? { cause: `${domain} points to ${elsewhere}, the host of another service.`, disowned: true }
      : undefined;
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

  async function checkCaa(domain: string): Promise<Finding | undefined> {
    const found = await relevantCaa(domain);
    const issue = found?.records.flatMap((record) => (record.issue === undefined ? [] : [record.issue]));
    if (!found || !issue || issue.length === 0) return undefined;
    const issuers = [...new Set(issue.map(issuerOf).filter(Boolean))];
    if (issuers.some((issuer) => identities.includes(issuer))) return undefined;
    const allowed = issuers.length === 0 ? 'no one' : `only ${listed(issuers, 'and')}`;
    return {
      cause: `A CAA record on ${found.name} allows ${allowed} to issue certificates: add ${listed(identities, 'or')}.`,
    };
  }

  return {
    /**
     * Every check of `domain` at once, for a claim with `token` (verified: proven again, by the token or a CNAME
     * to its own host). `ownershipOnly`: the claim's service has no host now; only whether the name is still its
     * holder's is asked. Failures are reported together, so one round of DNS changes can fix them all.
     */
    async check(
      domain: string,
      options: { token: string; target: DomainTarget; verified: boolean; ownershipOnly?: boolean },
    ): Promise<DnsVerdict> {
      const chain = cnameChain(domain);
      // The checks below read a failed lookup through their own awaits; this keeps one none read from being unhandled.
      chain.catch(() => undefined);
      const proof = { verified: options.verified, chain, host: options.target.host };
      const checks = options.ownershipOnly
        ? [checkOwnership(domain, options.token, proof), chain.then((names) => disownedBy(domain, names))]
        : [
            checkOwnership(domain, options.token, proof),
            checkTarget(domain, options.target, chain),
            checkCaa(domain),
          ];
      const results = await Promise.allSettled(checks);
      const findings = results.flatMap((result) =>
        result.status === 'fulfilled' && result.value ? [result.value] : [],
      );
      if (findings.length > 0) {
        return {
          outcome: 'fail',
          cause: findings.map((finding) => finding.cause).join(' '),
          disowned: options.verified && findings.some((finding) => finding.disowned),
        };
      }
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
