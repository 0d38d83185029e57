import type { DomainStatus } from '@slipway/contract';

/** A status as stored in `custom_domains.status`: the contract's. */
export type StoredStatus = DomainStatus;

/**
 * The statuses in which the proxy may order (or renew) a certificate: verified, and its DNS checked out last
 * time. Pending (never proven) and Misconfigured (its DNS moved away) are refused.
 */
export const SERVABLE_STATUSES: StoredStatus[] = ['verified', 'issuing', 'active', 'failed'];
