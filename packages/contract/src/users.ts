import { z } from 'zod';

export const userSchema = z.strictObject({
  id: z.string(),
  github_id: z.number().nullable(),
  login: z.string(),
  name: z.string().nullable(),
  avatar_url: z.string().nullable(),
  email: z.string().nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  whitelisted: z.boolean(),
  profile_completed: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const isValidEmail = (value: string) => EMAIL_PATTERN.test(value);

export const completeProfileRequestSchema = z.object({
  firstName: z
    .string({ error: 'First name is required' })
    .trim()
    .min(1, { error: 'First name is required' })
    .max(100, { error: 'First name must be at most 100 characters' }),
  lastName: z
    .string({ error: 'Last name is required' })
    .trim()
    .min(1, { error: 'Last name is required' })
    .max(100, { error: 'Last name must be at most 100 characters' }),
  email: z
    .string()
    .trim()
    .max(254, { error: 'Please enter a valid email address' })
    .refine((value) => value === '' || isValidEmail(value), { error: 'Please enter a valid email address' })
    .optional(),
});
export type CompleteProfileRequest = z.infer<typeof completeProfileRequestSchema>;

/** Splits a display name on its first space: "Ada King Lovelace" → ["Ada", "King Lovelace"]. */
export function splitName(name: string | null | undefined): { firstName: string; lastName: string } {
  const trimmed = (name ?? '').trim();
  const space = trimmed.indexOf(' ');
  if (space < 0) return { firstName: trimmed, lastName: '' };
  return { firstName: trimmed.slice(0, space), lastName: trimmed.slice(space + 1).trim() };
}

/** Local mode's sign-in (`?as=`): 'operator' is whitelisted, 'waiting' is not. GitHub mode ignores it. */
export const localSignInQuerySchema = z.object({ as: z.enum(['operator', 'waiting']).default('operator') });
/** GitHub's OAuth callback. */
export const oauthCallbackQuerySchema = z.object({
  code: z.string().min(1).max(512),
  state: z.string().min(1).max(256),
  installation_id: z.string().max(32).optional(),
});
