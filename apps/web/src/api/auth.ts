import type { CompleteProfileRequest, User } from '@slipway/contract';
import { api } from './client';
import { httpStatus } from './errors';

export const currentUserKey = ['auth', 'user'] as const;

/** GET /api/user: the signed-in user, or null for a visitor (401 is not an error here). */
export async function fetchCurrentUser(): Promise<User | null> {
  try {
    const { data } = await api.get<User>('/api/user', { silentUnauthorized: true });
    return data;
  } catch (error) {
    if (httpStatus(error) === 401) return null;
    throw error;
  }
}

export async function logout(): Promise<void> {
  await api.post('/api/auth/logout');
}

export async function completeProfile(input: CompleteProfileRequest): Promise<User> {
  const { data } = await api.post<User>('/api/auth/complete-profile', input);
  return data;
}

/** Where the sign-in button sends the browser (a full page load: the server redirects to GitHub). */
export const SIGN_IN_URL = '/api/auth/github/install';
