import { type CompleteProfileRequest, signInWithInstallEndpoint, type User } from '@slipway/contract';
import { lazyRouteClient } from './lazyClient';

export async function logout(): Promise<void> {
  await (await lazyRouteClient()).callRoute('logout');
}

export async function completeProfile(input: CompleteProfileRequest): Promise<User> {
  return (await lazyRouteClient()).callRoute('completeProfile', { body: input });
}

/**
 * Where the sign-in button sends the browser (a full page load: the server redirects to GitHub). The
 * route's own constant: the shell does not load the whole table before the landing shows.
 */
export const SIGN_IN_URL = signInWithInstallEndpoint.path;
