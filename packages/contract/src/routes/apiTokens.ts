import { z } from 'zod';
import {
  apiTokenIdParamsSchema,
  apiTokenSchema,
  createApiTokenSchema,
  createdApiTokenSchema,
} from '../apiTokens.js';
import { route } from '../route.js';
import { successMessageSchema } from '../schemaKit.js';

/** Account Settings → API Tokens: a signed-in person manages them; a token never does. */
export const apiTokenRoutes = {
  listApiTokens: route({
    method: 'GET',
    path: '/api/api-tokens',
    summary: 'List the API tokens',
    kind: 'json',
    access: 'whitelisted',
    responses: { 200: z.array(apiTokenSchema) },
  }),
  createApiToken: route({
    method: 'POST',
    path: '/api/api-tokens',
    summary: 'Create an API token',
    kind: 'json',
    access: 'whitelisted',
    body: createApiTokenSchema,
    responses: { 201: createdApiTokenSchema },
    note: 'The token is in this answer only; Slipway keeps its SHA-256.',
  }),
  revokeApiToken: route({
    method: 'DELETE',
    path: '/api/api-tokens/:id',
    summary: 'Revoke an API token',
    kind: 'json',
    access: 'whitelisted',
    params: apiTokenIdParamsSchema,
    responses: { 200: successMessageSchema },
    note: 'Takes effect on the next request, on every replica.',
  }),
};
