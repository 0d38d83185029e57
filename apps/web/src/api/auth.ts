import type { CompleteProfileRequest, RouteEndpoint, User } from '@slipway/contract';
import { lazyRouteClient } from './lazyClient';

export async function logout(): Promise<void> {
  await (await lazyRouteClient()).callRoute('logout');
}

export async function completeProfile(input: CompleteProfileRequest): Promise<User> {
  return (await lazyRouteClient()).callRoute('completeProfile', { body: input });
}

/**
 * Where the sign-in button sends the browser (a full page load: the server redirects to GitHub). Typed by
 * the route table rather than read from it: the shell does not load the table before the landing shows.
 */
export const SIGN_IN_URL: RouteEndpoint<'signInWithInstall'>['path'] = '/api/auth/github/install';
