import { z } from 'zod';
import { type RouteDefinition, route } from './route.js';
import { accountRoutes } from './routes/account.js';
import { adminRoutes } from './routes/admin.js';
import { apiTokenRoutes } from './routes/apiTokens.js';
import { backupRoutes } from './routes/backups.js';
import { billingRoutes } from './routes/billing.js';
import { customDomainRoutes } from './routes/customDomains.js';
import { deploymentRoutes } from './routes/deployments.js';
import { previewRoutes } from './routes/previews.js';
import { referenceRoutes } from './routes/reference.js';
import { workspaceRoutes } from './routes/workspaces.js';

/**
 * The one route table: every route the server registers, with its method, path, parameters, query,
 * body and JSON answers. URLs and field names fixed by the spec are listed here and nowhere else.
 */
export const ROUTES = {
  ...accountRoutes,
  ...deploymentRoutes,
  ...workspaceRoutes,
  ...billingRoutes,
  ...adminRoutes,
  ...apiTokenRoutes,
  ...customDomainRoutes,
  ...previewRoutes,
  ...backupRoutes,
  ...referenceRoutes,
  webApp: route({
    method: 'GET',
    path: '/*',
    summary: 'Serve the web app',
    kind: 'static',
    access: 'public',
    params: z.object({ '*': z.string() }),
    responses: {},
    note: 'The built web app (index.html for client routes); an unknown /api/ path answers a JSON 404 here.',
  }),
} satisfies Record<string, RouteDefinition>;

export type RouteName = keyof typeof ROUTES;
export type Routes = typeof ROUTES;

export const ROUTE_LIST: readonly (RouteDefinition & { name: RouteName })[] = Object.entries(ROUTES).map(
  ([name, definition]) => ({ ...definition, name: name as RouteName }),
);
