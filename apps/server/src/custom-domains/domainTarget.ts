import { isIP } from 'node:net';
import { CHALLENGE_LABEL, type DnsRecord } from '@slipway/contract';

/** Where a custom domain must point: the service's own host name (CNAME), or this server's addresses (A/AAAA). */
export interface DomainTarget {
  /** The service's own public host name, from its URL; undefined when it has none (a `.localhost` one). */
  host: string | undefined;
  /** INGRESS_ADDRESSES: what an apex's A/AAAA records point at. */
  addresses: string[];
}

/** The service's own host name from its URL, when it is a public DNS name a CNAME can point at. */
export function publicHostOf(serviceUrl: string | undefined): string | undefined {
  if (!serviceUrl) return undefined;
  let host: string;
  try {
    host = new URL(serviceUrl).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return undefined;
  }
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) return undefined;
  if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) return undefined;
  return host;
}

/** The name a `redirect_www` domain also answers: `www.{domain}`, or the apex of a `www.` domain. */
export function companionOf(domain: string): string {
  return domain.startsWith('www.') && domain.split('.').length > 2 ? domain.slice(4) : `www.${domain}`;
}

export const challengeName = (domain: string) => `${CHALLENGE_LABEL}.${domain}`;

const v4 = (target: DomainTarget) => target.addresses.filter((address) => isIP(address) === 4);
const v6 = (target: DomainTarget) => target.addresses.filter((address) => isIP(address) === 6);

/** "an A record for 203.0.113.10 and an AAAA record for 2001:db8::10" (empty without addresses). */
function addressRecords(target: DomainTarget): string {
  const phrase = (type: 'A' | 'AAAA', addresses: string[]) =>
    addresses.length === 1
      ? `${type === 'A' ? 'an A' : 'an AAAA'} record for ${addresses[0]}`
      : `${type} records for ${addresses.join(', ')}`;
  return [
    ...(v4(target).length ? [phrase('A', v4(target))] : []),
    ...(v6(target).length ? [phrase('AAAA', v6(target))] : []),
  ].join(' and ');
}

/**
 * What to add at the DNS provider for the name to reach the service, as a sentence's object: "a CNAME record
 * pointing to web-shop.example.net", and where there are addresses, the A/AAAA alternative for an apex.
 */
export function pointingInstruction(target: DomainTarget): string {
  const addresses = addressRecords(target);
  if (!target.host) return addresses;
  const cname = `a CNAME record pointing to ${target.host}`;
  return addresses ? `${cname} (at a zone's apex, where a CNAME is not allowed: ${addresses})` : cname;
}

/** What the name should point to, briefly: "web-shop.example.net or 203.0.113.10". */
export function targetDescription(target: DomainTarget): string {
  return [...(target.host ? [target.host] : []), ...target.addresses].join(' or ');
}

/** The records that put `domain` on the service: a CNAME, or A/AAAA records (an apex cannot have a CNAME). */
function pointingRecords(domain: string, target: DomainTarget): DnsRecord[] {
  return [
    ...(target.host ? [{ type: 'CNAME' as const, name: domain, value: target.host }] : []),
    ...v4(target).map((value) => ({ type: 'A' as const, name: domain, value })),
    ...v6(target).map((value) => ({ type: 'AAAA' as const, name: domain, value })),
  ];
}

/**
 * Everything to add at the DNS provider: the TXT token that proves ownership, and the records that point the
 * name (and its `www` companion, when it redirects) at the service. A subdomain may use either the CNAME or
 * the A/AAAA records; an apex, only the A/AAAA ones.
 */
export function recordsFor(
  row: { domain: string; challengeToken: string; redirectWww: boolean },
  target: DomainTarget,
): DnsRecord[] {
  return [
    { type: 'TXT', name: challengeName(row.domain), value: row.challengeToken },
    ...pointingRecords(row.domain, target),
    ...(row.redirectWww ? pointingRecords(companionOf(row.domain), target) : []),
  ];
}
