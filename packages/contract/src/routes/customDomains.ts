import { z } from 'zod';
import {
  addDomainSchema,
  customDomainSchema,
  domainParamsSchema,
  tlsPermissionQuerySchema,
  tlsPermissionSchema,
} from '../customDomains.js';
import { route } from '../route.js';
import { successMessageSchema } from '../schemaKit.js';
import { workspaceNameParamSchema } from '../workspaces.js';

/** Workspace Settings → Domains, and the question Caddy asks before it orders a certificate. */
export const customDomainRoutes = {
  listDomains: route({
    method: 'GET',
    path: '/api/workspace-domains/:name',
    summary: 'List the custom domains of a workspace',
    kind: 'json',
    access: 'whitelisted',
    params: workspaceNameParamSchema,
    responses: { 200: z.array(customDomainSchema) },
  }),
  addDomain: route({
    method: 'POST',
    path: '/api/workspace-domains/:name',
    summary: 'Add a custom domain',
    kind: 'json',
    access: 'whitelisted',
    params: workspaceNameParamSchema,
    body: addDomainSchema,
    responses: { 201: customDomainSchema },
    note: 'A domain verified by another workspace answers 409 without saying whose it is. A claim is served only once its TXT token and its target check out (Verify).',
  }),
  verifyDomain: route({
    method: 'POST',
    path: '/api/workspace-domains/:name/:domain/verify',
    summary: "Check a custom domain's DNS now",
    kind: 'json',
    access: 'whitelisted',
    params: domainParamsSchema,
    responses: { 200: customDomainSchema },
    note: 'Checks the DNS now and answers the domain with its status and, when it is not verified, the cause.',
  }),
  removeDomain: route({
    method: 'DELETE',
    path: '/api/workspace-domains/:name/:domain',
    summary: 'Remove a custom domain',
    kind: 'json',
    access: 'whitelisted',
    params: domainParamsSchema,
    responses: { 200: successMessageSchema },
    note: 'Its route goes at once; Caddy is refused a certificate for it from then on.',
  }),
  tlsPermission: route({
    method: 'GET',
    path: '/api/tls/permission',
    summary: 'Tell Caddy whether it may order a certificate',
    kind: 'json',
    access: 'loopback',
    query: tlsPermissionQuerySchema,
    responses: { 200: tlsPermissionSchema },
    note: "Caddy's on-demand TLS `ask`: 200 only for a verified domain in its normalised form, 404 for anything else. Answers only a direct connection from loopback (404 otherwise, and for anything that came through a proxy).",
  }),
};
