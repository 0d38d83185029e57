// Generated from the route table (routes.ts) by scripts/routeEndpoints.ts: run `npm run routes`, do not edit.
import type { RouteEndpoint } from './routeEndpoints.js';

// The routes the web app's first script calls, apart from ROUTE_ENDPOINTS so it carries only these.
export const currentUserEndpoint = {
  method: 'GET',
  path: '/api/user',
} as const satisfies RouteEndpoint<'currentUser'>;
export const signInEndpoint = {
  method: 'GET',
  path: '/api/auth/github',
} as const satisfies RouteEndpoint<'signIn'>;
export const signInWithInstallEndpoint = {
  method: 'GET',
  path: '/api/auth/github/install',
} as const satisfies RouteEndpoint<'signInWithInstall'>;
