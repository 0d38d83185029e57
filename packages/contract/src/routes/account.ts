import { z } from 'zod';
import { enterpriseInquiryResultSchema, enterpriseInquirySchema } from '../enterprise.js';
import { publicConfigSchema } from '../publicConfig.js';
import {
  branchesQuerySchema,
  branchSchema,
  contentsParamsSchema,
  contentsQuerySchema,
  contentsSchema,
  installationSchema,
  repositoryParamsSchema,
  repositorySchema,
} from '../repositories.js';
import { route } from '../route.js';
import { successSchema } from '../schemaKit.js';
import {
  completeProfileRequestSchema,
  localSignInQuerySchema,
  oauthCallbackQuerySchema,
  userSchema,
} from '../users.js';
import { vmSizeSchema } from '../vmSizeSchemas.js';

/** Sign-in, the user, the repository picker and the public calls. */
export const accountRoutes = {
  health: route({
    method: 'GET',
    path: '/api/health',
    kind: 'json',
    access: 'public',
    responses: { 200: z.strictObject({ status: z.literal('ok') }) },
  }),
  publicConfig: route({
    method: 'GET',
    path: '/api/public-config',
    kind: 'json',
    access: 'public',
    responses: { 200: publicConfigSchema },
  }),
  signInWithInstall: route({
    method: 'GET',
    path: '/api/auth/github/install',
    kind: 'redirect',
    access: 'public',
    query: localSignInQuerySchema,
    responses: {},
    note: 'Full-page navigation: redirects to GitHub (or, in local mode, signs in and lands on / or /complete-profile).',
  }),
  signIn: route({
    method: 'GET',
    path: '/api/auth/github',
    kind: 'redirect',
    access: 'public',
    query: localSignInQuerySchema,
    responses: {},
    note: 'As /api/auth/github/install, without asking GitHub to install the app.',
  }),
  oauthCallback: route({
    method: 'GET',
    path: '/api/auth/github/callback',
    kind: 'redirect',
    access: 'public',
    query: oauthCallbackQuerySchema,
    responses: {},
  }),
  currentUser: route({
    method: 'GET',
    path: '/api/user',
    kind: 'json',
    access: 'user',
    responses: { 200: userSchema },
  }),
  logout: route({
    method: 'POST',
    path: '/api/auth/logout',
    kind: 'json',
    access: 'public',
    responses: { 200: successSchema },
  }),
  completeProfile: route({
    method: 'POST',
    path: '/api/auth/complete-profile',
    kind: 'json',
    access: 'user',
    body: completeProfileRequestSchema,
    responses: { 200: userSchema },
  }),
  enterpriseContact: route({
    method: 'POST',
    path: '/api/enterprise-contact',
    kind: 'json',
    access: 'public',
    body: enterpriseInquirySchema,
    bodyLimit: 64 * 1024,
    responses: { 201: enterpriseInquiryResultSchema },
    note: 'At most 10 inquiries per hour per address (then 429).',
  }),
  listRepositories: route({
    method: 'GET',
    path: '/api/github/repos',
    kind: 'json',
    access: 'whitelisted',
    responses: { 200: z.array(repositorySchema) },
  }),
  getRepository: route({
    method: 'GET',
    path: '/api/github/repos/:owner/:repo',
    kind: 'json',
    access: 'whitelisted',
    params: repositoryParamsSchema,
    responses: { 200: repositorySchema },
  }),
  repositoryRoot: route({
    method: 'GET',
    path: '/api/github/repos/:owner/:repo/contents',
    kind: 'json',
    access: 'whitelisted',
    params: repositoryParamsSchema,
    query: contentsQuerySchema,
    responses: { 200: contentsSchema },
  }),
  repositoryContents: route({
    method: 'GET',
    path: '/api/github/repos/:owner/:repo/contents/*',
    kind: 'json',
    access: 'whitelisted',
    params: contentsParamsSchema,
    query: contentsQuerySchema,
    responses: { 200: contentsSchema },
  }),
  listBranches: route({
    method: 'GET',
    path: '/api/github/repos/:owner/:repo/branches',
    kind: 'json',
    access: 'whitelisted',
    params: repositoryParamsSchema,
    query: branchesQuerySchema,
    responses: { 200: z.array(branchSchema) },
  }),
  listInstallations: route({
    method: 'GET',
    path: '/api/github/installations',
    kind: 'json',
    access: 'user',
    responses: { 200: z.array(installationSchema) },
  }),
  vmSizes: route({
    method: 'GET',
    path: '/api/vm-sizes',
    kind: 'json',
    access: 'public',
    responses: { 200: z.array(vmSizeSchema) },
  }),
};
