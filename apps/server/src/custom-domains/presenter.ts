import { type CustomDomain, unicodeDomain } from '@slipway/contract';
import type { CustomDomainRow } from './customDomainsRepository.js';
import { type DomainTarget, recordsFor } from './domainTarget.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** A claim as the contract shows it: both forms of its name, its records to add, its status and cause. */
export function presentDomain(
  row: CustomDomainRow,
  context: { target: DomainTarget; httpsPort: number },
): CustomDomain {
  const port = context.httpsPort === 443 ? '' : `:${context.httpsPort}`;
  return {
    id: row.id,
    domain: row.domain,
    unicode_domain: unicodeDomain(row.domain),
    service: row.service,
    status: row.status as CustomDomain['status'],
    cause: row.cause,
    retry_after: iso(row.retryAfter),
    redirect_www: row.redirectWww,
    records: recordsFor(row, context.target),
    url: `https://${row.domain}${port}`,
    certificate:
      row.certificateIssuer && row.certificateNotAfter
        ? { issuer: row.certificateIssuer, not_after: row.certificateNotAfter.toISOString() }
        : null,
    verified_at: iso(row.verifiedAt),
    checked_at: iso(row.checkedAt),
    next_check_at: iso(row.nextCheckAt),
    created_at: row.createdAt.toISOString(),
  };
}
