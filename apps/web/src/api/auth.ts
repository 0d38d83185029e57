import type { CompleteProfileRequest, User } from '@slipway/contract';
import { httpStatus } from './errors';
import { lazyApi } from './lazyClient';

export const currentUserKey = ['auth', 'user'] as const;

/** GET /api/user: the signed-in user, or null for a visitor (401 is not an error here). */
export async function fetchCurrentUser(): Promise<User | null> {
  try {
    const { data } = await (await lazyApi()).get<User>('/api/user', { silentUnauthorized: true });
    return data;
  } catch (error) {
    if (httpStatus(error) === 401) return null;
    throw error;
  }
}

export async function logout(): Promise<void> {
  await (await lazyApi()).post('/api/auth/logout');
}

export async function completeProfile(input: CompleteProfileRequest): Promise<User> {
  const { data } = await (await lazyApi()).post<User>('/api/auth/complete-profile', input);
  return data;
}

/** Where the sign-in button sends the browser (a full page load: the server redirects to GitHub). */
export const SIGN_IN_URL = '/api/auth/github/install';
