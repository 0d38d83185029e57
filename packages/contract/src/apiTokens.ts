import { z } from 'zod';

/**
 * What an API token may do. A route needs one scope (tokenRules.ts); a token holds a set, where `write`
 * includes `deploy` and `read`, `deploy` and `secrets:read` include `read`.
 */
export const TOKEN_SCOPES = ['read', 'deploy', 'write', 'secrets:read'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

const IMPLIES: Record<TokenScope, readonly TokenScope[]> = {
  read: ['read'],
  deploy: ['deploy', 'read'],
  write: ['write', 'deploy', 'read'],
  'secrets:read': ['secrets:read', 'read'],
};

/** Whether a token holding `held` may use a route that needs `needed`. */
export const scopesAllow = (held: readonly TokenScope[], needed: TokenScope) =>
  held.some((scope) => IMPLIES[scope].includes(needed));

/** Every token starts so, so secret scanners (GitHub's among them) can recognise a leaked one. */
export const API_TOKEN_PREFIX = 'slw_';
export const API_TOKEN_PATTERN = /^slw_[A-Za-z0-9]{40}$/;
export const MAX_TOKEN_EXPIRY_DAYS = 365;

export const apiTokenIdParamsSchema = z.object({ id: z.uuid({ error: 'Invalid token id' }) });

export const createApiTokenSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: 'Give the token a name' })
    .max(64, { error: 'A token name is at most 64 characters' }),
  scopes: z
    .array(z.enum(TOKEN_SCOPES, { error: 'Unknown scope' }))
    .min(1, { error: 'Choose at least one scope' })
    .transform((scopes) => [...new Set(scopes)]),
  /** Days until it expires; null: never. */
  expires_in_days: z
    .number()
    .int()
    .min(1, { error: 'A token lasts at least a day' })
    .max(MAX_TOKEN_EXPIRY_DAYS, { error: `A token lasts at most ${MAX_TOKEN_EXPIRY_DAYS} days` })
    .nullable(),
  /** The workspaces it may touch; null: all of its owner's. */
  workspaces: z
    .array(z.string().min(1).max(100))
    .min(1, { error: 'Choose at least one workspace, or none to allow all' })
    .nullable()
    .default(null),
});
export type CreateApiToken = z.input<typeof createApiTokenSchema>;

export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The first characters of the token, to tell tokens apart: `slw_AbCd`. */
  prefix: z.string(),
  scopes: z.array(z.enum(TOKEN_SCOPES)),
  workspaces: z.array(z.string()).nullable(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const createdApiTokenSchema = z.object({
  /** The token itself: shown once, stored only as a hash. */
  token: z.string(),
  api_token: apiTokenSchema,
});
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;
