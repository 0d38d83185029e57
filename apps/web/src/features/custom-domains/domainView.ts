import { type CustomDomain, DOMAIN_STATUS_LABELS, type DomainStatus } from '@slipway/contract';
import { statusOf } from '../../components/StatusBadge';
import type { BadgeTone } from '../../components/ui';
import { formatDateTime } from '../../lib/dates';

/** Grey, blue, amber, green, orange, red: from not there yet, through under way, to fine or not. */
export const STATUS_TONES = {
  pending_dns: 'neutral',
  verified: 'info',
  issuing: 'warning',
  active: 'success',
  misconfigured: 'caution',
  failed: 'danger',
} as const satisfies Record<DomainStatus, BadgeTone>;

export const DNS_INSTRUCTIONS =
  'Add these records at your DNS provider, then press Verify. Slipway also checks by itself, every few minutes at first, then hourly.';

/** How often the list is read again while a domain moves on by itself (Verified → Issuing → Active). */
export const SETTLING_POLL_MS = 5_000;

/** Verified and Issuing certificate move on to Active by themselves. */
const settling = (domain: CustomDomain) => domain.status === 'verified' || domain.status === 'issuing';

const domainStatusOf = statusOf(DOMAIN_STATUS_LABELS, STATUS_TONES);

/** The status's badge: turning while the domain moves on to Active by itself. */
export const domainStatus = (domain: CustomDomain) => domainStatusOf(domain.status, settling(domain));

/** Poll while any domain is on its way to Active, so Active appears without a reload; otherwise not. */
export const domainsPollInterval = (domains: CustomDomain[] | undefined): number | false =>
  domains?.some(settling) ? SETTLING_POLL_MS : false;

/** An Active domain is served; every other one still has something to do at the DNS provider. */
export const needsDnsRecords = (domain: CustomDomain) => domain.status !== 'active';

/** The ASCII (punycode) form, shown beside the readable one only for an IDN. */
export const asciiForm = (domain: CustomDomain): string | undefined =>
  domain.domain === domain.unicode_domain ? undefined : domain.domain;

export const retryAfterText = (domain: CustomDomain): string | undefined =>
  domain.retry_after ? `Retry after ${formatDateTime(domain.retry_after)}` : undefined;

export const certificateText = (domain: CustomDomain): string | undefined =>
  domain.certificate
    ? `Certificate from ${domain.certificate.issuer}, valid until ${formatDateTime(domain.certificate.not_after)}`
    : undefined;

export const nextCheckText = (domain: CustomDomain): string | undefined =>
  domain.next_check_at ? `Next automatic check: ${formatDateTime(domain.next_check_at)}` : undefined;

export const removeQuestion = (domain: CustomDomain) =>
  `Remove ${domain.unicode_domain}? It stops being served at once.`;

/** The services a domain can serve: those with a URL, by name. */
export const serviceChoices = (serviceUrls: Record<string, string>) =>
  Object.keys(serviceUrls)
    .sort()
    .map((service) => ({ value: service, label: service }));
