import type { RequestSamples } from './requestSampleTypes.js';
import type { RouteName } from './routes.js';

/** Request samples of Workspace Settings → Domains and Caddy's permission question. */
export const CUSTOM_DOMAIN_REQUEST_SAMPLES: Partial<Record<RouteName, RequestSamples>> = {
  addDomain: {
    body: {
      valid: [
        { domain: 'shop.example.com', service: 'web' },
        { domain: 'Bücher.Example.', service: 'web', redirect_www: true },
      ],
      invalid: [
        {
          value: { domain: 'https://shop.example.com/', service: 'web' },
          message:
            '"https://shop.example.com/" is not a domain name: enter one like shop.example.com, without https:// or a path',
        },
        { value: { domain: '203.0.113.9', service: 'web' } },
        {
          value: { domain: 'shop.example.com', service: '' },
          message: 'Choose the service this domain serves',
        },
        { value: { service: 'web' }, message: 'Enter a domain name' },
      ],
    },
  },
  verifyDomain: {
    params: {
      valid: [{ name: 'shop', domain: 'SHOP.example.com' }],
      invalid: [
        { value: { name: 'shop', domain: 'localhost' } },
        { value: { name: 'shop', domain: '*.example.com' } },
      ],
    },
  },
  tlsPermission: {
    // Any string is a question; only the exact normalised form of a verified domain gets a yes (the server's).
    query: {
      valid: [{}, { domain: 'shop.example.com' }, { domain: '203.0.113.9' }],
      invalid: [{ value: { domain: 7 } }],
    },
  },
};
