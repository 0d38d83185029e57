import type { CompleteProfileRequest, User } from '@slipway/contract';
import { lazyApi } from './lazyClient';

export async function logout(): Promise<void> {
  await (await lazyApi()).post('/api/auth/logout');
}

export async function completeProfile(input: CompleteProfileRequest): Promise<User> {
  const { data } = await (await lazyApi()).post<User>('/api/auth/complete-profile', input);
  return data;
}

/** Where the sign-in button sends the browser (a full page load: the server redirects to GitHub). */
export const SIGN_IN_URL = '/api/auth/github/install';
