import { type CaddyAdmin, setConfig } from './caddyAdmin.js';
import type { OnDemandTls } from './ingress.js';

const AUTOMATION = '/config/apps/tls/automation';
/** Own hosts under `.localhost` (no public domain): Caddy's internal CA. */
const INTERNAL_POLICY_ID = 'slipway-internal-tls';
/** Own hosts under the public domain, when custom domains are on: Caddy's default ACME issuers, as without. */
const OWN_HOSTS_POLICY_ID = 'slipway-own-hosts-tls';
/** Every other name: custom domains, each certificate ordered on demand once Slipway allows the name. */
const CUSTOM_DOMAINS_POLICY_ID = 'slipway-custom-domains-tls';
const OURS = new Set([INTERNAL_POLICY_ID, OWN_HOSTS_POLICY_ID, CUSTOM_DOMAINS_POLICY_ID]);

interface Policy {
  '@id'?: string;
  subjects?: string[];
  [key: string]: unknown;
}

interface Automation {
  policies?: Policy[];
  on_demand?: Record<string, unknown>;
  [key: string]: unknown;
}

/** `*.*`, `*.*.*`, …: with one wildcard per label, these match every name of 2 to 16 labels (see below). */
const ANY_NAME = Array.from({ length: 15 }, (_, i) => Array.from({ length: i + 2 }, () => '*').join('.'));

/**
 * Slipway's automation policies. Caddy takes the first policy one of whose subjects matches a name: it matches
 * a wildcard subject by turning the name's labels into `*` one by one from the left, so `*.localhost` matches
 * `web-shop.localhost` and `*.*.*` matches any name of three labels.
 *
 * The own hosts' policies come first and name their subjects; the custom domains' on-demand policy follows and
 * matches every other name — a custom domain, or a random name in a flood of handshakes — each asked of
 * Slipway before an order is placed. It is not a catch-all (a policy without subjects): Caddy's automatic
 * HTTPS copies the catch-all, on-demand flag included, into the implicit internal-CA policy it makes for the
 * `.localhost` hosts of the routes, which would then never get their certificates.
 */
export function slipwayPolicies(
  publicDomain: string | undefined,
  onDemandTls: OnDemandTls | undefined,
): Policy[] {
  const policies: Policy[] = [];
  if (!publicDomain) {
    policies.push({
      '@id': INTERNAL_POLICY_ID,
      subjects: ['*.localhost'],
      issuers: [{ module: 'internal' }],
    });
  } else if (onDemandTls) {
    // No issuers: Caddy fills in its defaults, exactly as for a name no policy covers.
    policies.push({ '@id': OWN_HOSTS_POLICY_ID, subjects: [`*.${publicDomain}`] });
  }
  if (onDemandTls) {
    const { directoryUrl, email, caRootFile } = onDemandTls.acme;
    policies.push({
      '@id': CUSTOM_DOMAINS_POLICY_ID,
      subjects: ANY_NAME,
      on_demand: true,
      issuers: [
        {
          module: 'acme',
          ca: directoryUrl,
          ...(email ? { email } : {}),
          ...(caRootFile ? { trusted_roots_pem_files: [caRootFile] } : {}),
        },
      ],
    });
  }
  return policies;
}

/**
 * Brings Caddy's TLS automation to Slipway's policies (and the on-demand `ask` URL), keeping any policy that is
 * not Slipway's: one read, and one write only when something differs — a Caddy that restarted empty, a policy
 * from an earlier Slipway (the internal-CA catch-all), or a changed ACME setting.
 */
export async function ensureTlsAutomation(
  admin: CaddyAdmin,
  publicDomain: string | undefined,
  onDemandTls: OnDemandTls | undefined,
): Promise<void> {
  const read = await admin.call('GET', AUTOMATION).catch((error: { status?: number }) => {
    if (error.status === 400 || error.status === 404) return null;
    throw error;
  });
  const current = (read ?? {}) as Automation;
  const ours = slipwayPolicies(publicDomain, onDemandTls);
  const others = (current.policies ?? []).filter((policy) => !OURS.has(policy['@id'] ?? ''));
  // The on-demand policy matches nearly every name: it goes after every policy naming its own, before a
  // catch-all.
  const onDemand = (policy: Policy) => policy['@id'] === CUSTOM_DOMAINS_POLICY_ID;
  const catchAll = (policy: Policy) => !policy.subjects?.length;
  const next: Automation = {
    ...current,
    policies: [
      ...ours.filter((policy) => !onDemand(policy)),
      ...others.filter((policy) => !catchAll(policy)),
      ...ours.filter(onDemand),
      ...others.filter(catchAll),
    ],
  };
  if (next.policies?.length === 0) delete next.policies;
  if (onDemandTls) next.on_demand = { ...current.on_demand, ask: onDemandTls.permissionUrl };
  if (canonical(next) !== canonical(current)) await setConfig(admin, AUTOMATION, next);
}

/** JSON with sorted keys: Caddy gives back its config with its own key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b)))
      : item,
  );
}
