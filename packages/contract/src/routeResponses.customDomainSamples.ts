import type { RouteName } from './routes.js';

/** A custom domain as listed: an IDN, verified, its certificate issued. */
const CUSTOM_DOMAIN_SAMPLE = {
  id: '5d0f6a3e-2b1c-4e7f-8a90-1b2c3d4e5f60',
  domain: 'xn--bcher-kva.example',
  unicode_domain: 'bücher.example',
  service: 'web',
  status: 'active',
  cause: null,
  retry_after: null,
  redirect_www: true,
  records: [
    {
      type: 'TXT',
      name: '_slipway-challenge.xn--bcher-kva.example',
      value: 'q2hVn0C1x8Lk3RZbM4wY7pTj9sFhGdAeXuIoPaS5vNc',
    },
    { type: 'CNAME', name: 'xn--bcher-kva.example', value: 'web-shop.slipway.example' },
    { type: 'A', name: 'xn--bcher-kva.example', value: '203.0.113.10' },
  ],
  url: 'https://xn--bcher-kva.example',
  certificate: { issuer: "(STAGING) Let's Encrypt", not_after: '2027-02-25T12:00:00.000Z' },
  verified_at: '2026-11-27T12:00:00.000Z',
  checked_at: '2026-11-27T12:00:00.000Z',
  next_check_at: '2026-11-28T12:00:00.000Z',
  created_at: '2026-11-27T11:58:00.000Z',
};
const PENDING_DOMAIN_SAMPLE = {
  ...CUSTOM_DOMAIN_SAMPLE,
  domain: 'shop.example.com',
  unicode_domain: 'shop.example.com',
  status: 'pending_dns',
  cause: 'No DNS record for shop.example.com yet: add a CNAME record pointing to web-shop.slipway.example.',
  redirect_www: false,
  url: 'https://shop.example.com',
  certificate: null,
  verified_at: null,
};

/** Answers of Workspace Settings → Domains and Caddy's permission question, for the response schema tests. */
export const CUSTOM_DOMAIN_RESPONSE_SAMPLES: Partial<Record<RouteName, Record<number, unknown>>> = {
  listDomains: { 200: [CUSTOM_DOMAIN_SAMPLE, PENDING_DOMAIN_SAMPLE] },
  addDomain: { 201: { ...PENDING_DOMAIN_SAMPLE, cause: null } },
  verifyDomain: { 200: PENDING_DOMAIN_SAMPLE },
  removeDomain: { 200: { success: true, message: 'shop.example.com removed from shop' } },
  tlsPermission: { 200: { allowed: true } },
};
