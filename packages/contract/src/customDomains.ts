import { z } from 'zod';
import { readDomainName } from './domainNames.js';
import { workspaceNameParam } from './pathParams.js';
import { timestampSchema } from './schemaKit.js';

/**
 * A custom domain's life: Pending DNS (the records are not there yet) → Verified (the TXT token and the
 * target both check out; the route serves it) → Issuing certificate → Active; or Misconfigured (it was
 * verified and its DNS moved away: still listed, no longer served a new certificate) or Failed (the CA
 * refused), each with a cause in words. A verified claim whose DNS no longer proves it is its workspace's (its
 * token gone without a CNAME to its own host, or an alias to another service) goes back to Pending DNS.
 */
export const DOMAIN_STATUSES = [
  'pending_dns',
  'verified',
  'issuing',
  'active',
  'misconfigured',
  'failed',
] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

export const DOMAIN_STATUS_LABELS: Record<DomainStatus, string> = {
  pending_dns: 'Pending DNS',
  verified: 'Verified',
  issuing: 'Issuing certificate',
  active: 'Active',
  misconfigured: 'Misconfigured',
  failed: 'Failed',
};

/** The TXT record that proves ownership lives at `_slipway-challenge.{domain}`. */
export const CHALLENGE_LABEL = '_slipway-challenge';
export const MAX_DOMAINS_PER_WORKSPACE = 50;

export { decodePunycode, normaliseDomain, readDomainName, unicodeDomain } from './domainNames.js';

/** A domain as typed, read into its ASCII form; each refusal a sentence naming the name's own problem. */
const domainName = (options: { scripts: boolean }) =>
  z
    .string({ error: 'Enter a domain name' })
    .max(300, { error: 'A domain name is at most 253 characters' })
    .transform((value, context) => {
      const reading = readDomainName(value, options);
      if ('problem' in reading) {
        context.addIssue({ code: 'custom', message: reading.problem });
        return z.NEVER;
      }
      return reading.domain;
    });

/** A name to add: every rule, the script rule (no look-alike names) included. */
export const domainNameSchema = domainName({ scripts: true });

export const addDomainSchema = z.object({
  domain: domainNameSchema,
  /** The service it serves: one of the workspace's services with a URL. */
  service: z.string().min(1, { error: 'Choose the service this domain serves' }).max(200),
  /** Also answer at `www.{domain}` (or at the apex, for a `www.` domain) with a redirect to this one. */
  redirect_www: z.boolean().default(false),
});
export type AddDomain = z.input<typeof addDomainSchema>;

/** A claim's name in a path: claims made before the script rule stay reachable (Verify, remove). */
export const domainParamsSchema = z.object({
  name: workspaceNameParam,
  domain: domainName({ scripts: false }),
});

/** The question Caddy asks before it orders a certificate: `?domain=shop.example.com`. */
export const tlsPermissionQuerySchema = z.object({ domain: z.string().max(300).default('') });

export const dnsRecordSchema = z.object({
  type: z.enum(['TXT', 'CNAME', 'A', 'AAAA']),
  /** The full record name, e.g. `_slipway-challenge.shop.example.com`. */
  name: z.string(),
  value: z.string(),
});
export type DnsRecord = z.infer<typeof dnsRecordSchema>;

export const customDomainSchema = z.object({
  id: z.string(),
  /** Normalised (ASCII, punycode for an IDN). */
  domain: z.string(),
  /** The same name as people read it (differs from `domain` only for an IDN). */
  unicode_domain: z.string(),
  service: z.string(),
  status: z.enum(DOMAIN_STATUSES),
  /** Why it is not Active, in a sentence a user can act on; null when nothing is wrong. */
  cause: z.string().nullable(),
  /** When the CA asked to wait (a rate limit): retry after this moment. */
  retry_after: timestampSchema.nullable(),
  redirect_www: z.boolean(),
  /** What to add at the DNS provider: the TXT token, and a CNAME or A/AAAA records. */
  records: z.array(dnsRecordSchema),
  url: z.string(),
  certificate: z.object({ issuer: z.string(), not_after: timestampSchema }).nullable(),
  verified_at: timestampSchema.nullable(),
  checked_at: timestampSchema.nullable(),
  next_check_at: timestampSchema.nullable(),
  created_at: timestampSchema,
});
export type CustomDomain = z.infer<typeof customDomainSchema>;

export const tlsPermissionSchema = z.object({ allowed: z.literal(true) });
