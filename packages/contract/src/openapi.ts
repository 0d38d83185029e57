import type { z } from 'zod';
import { errorBodySchema } from './errors.js';
import { descriptionOf, errorAnswers, SECURITY_SCHEMES, securityOf } from './openApiAccess.js';
import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiMethod,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiResponse,
} from './openApiDocument.js';
import { jsonSchemaOf, type SchemaComponents } from './openApiJsonSchema.js';
import { pathParamNames, type RouteDefinition } from './route.js';
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
import { ROUTE_LIST, type RouteName } from './routes.js';

/**
 * The route table's areas (one file of routes/ each): an operation's tag is the area its route comes from.
 * `AreaRoutes` below makes a route of ROUTES that no area lists fail `tsc`, so a new file of routes is
 * added here too.
 */
const AREAS = {
  account: {
    routes: accountRoutes,
    description: 'Sign-in, the user, the repository picker and the public calls.',
  },
  deployments: {
    routes: deploymentRoutes,
    description:
      'The deployment wizard, the workflow and its logs, and the workspace’s environment variables.',
  },
  workspaces: {
    routes: workspaceRoutes,
    description:
      'The workspace dashboard: workspaces, their logs, system health, alerts and notification settings.',
  },
  billing: { routes: billingRoutes, description: 'Plans, subscriptions, invoices and PayPal’s webhook.' },
  admin: { routes: adminRoutes, description: 'The admin panel and the impersonation links it hands out.' },
  apiTokens: {
    routes: apiTokenRoutes,
    description: 'API tokens for scripts and CI, managed from a signed-in session only.',
  },
  customDomains: {
    routes: customDomainRoutes,
    description:
      "A workspace's own domains, proven by DNS, and the question Caddy asks before it orders a certificate.",
  },
  previews: {
    routes: previewRoutes,
    description:
      "Previews of a workspace's pull requests: their settings, the previews themselves and which variables they get.",
  },
  backups: {
    routes: backupRoutes,
    description:
      "A workspace's backups: schedule and retention, Back Up Now, each backup verified by restoring it, and restores.",
  },
  reference: { routes: referenceRoutes, description: 'This description of the API.' },
} as const;

type AreaRoutes = { [A in keyof typeof AREAS]: keyof (typeof AREAS)[A]['routes'] }[keyof typeof AREAS];
/** Every API route belongs to an area; only the web app's files (`static`) do not. */
const everyRouteHasAnArea: [Exclude<RouteName, AreaRoutes | 'webApp'>] extends [never] ? true : never = true;
void everyRouteHasAnArea;

const AREA_OF = new Map<string, string>(
  Object.entries(AREAS).flatMap(([area, { routes }]) => Object.keys(routes).map((name) => [name, area])),
);

/** The name a wildcard (`*`, the rest of the path) gets in the document's path templates. */
export const WILDCARD_PARAMETER = 'path';

/** A route table path as an OpenAPI path template: `/a/:x/*` → `/a/{x}/{path}`. */
export function openApiPath(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) return `{${segment.slice(1)}}`;
      return segment === '*' ? `{${WILDCARD_PARAMETER}}` : segment;
    })
    .join('/');
}

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

function successAnswers(
  route: RouteDefinition & { name: string },
  components: SchemaComponents,
): Record<string, OpenApiResponse> {
  if (route.kind === 'sse') {
    const stream: JsonSchema = {
      type: 'string',
      description: 'Server-sent events (`data:` lines), with heartbeats.',
    };
    return {
      200: {
        description: 'A stream of server-sent events.',
        content: { 'text/event-stream': { schema: stream } },
      },
    };
  }
  if (route.kind === 'redirect') {
    return {
      302: {
        description: 'Redirects the browser: open it as a page, not as a call.',
        headers: { Location: { description: 'Where the browser goes next.', schema: { type: 'string' } } },
      },
    };
  }
  return Object.fromEntries(
    Object.entries(route.responses).map(([status, schema]: [string, z.ZodType]) => [
      status,
      {
        description: STATUS_TEXT[Number(status)] ?? (Number(status) >= 400 ? 'Error' : `HTTP ${status}`),
        content: {
          'application/json': {
            schema: jsonSchemaOf(schema, 'output', `${route.name}_${status}`, components),
          },
        },
      },
    ]),
  );
}

function parametersOf(route: RouteDefinition & { name: string }, components: SchemaComponents) {
  const parameters: OpenApiParameter[] = [];
  if (route.params) {
    const { properties = {} } = jsonSchemaOf(route.params, 'input', `${route.name}_params`, components);
    for (const name of pathParamNames(route.path)) {
      const wildcard = name === '*';
      const { description, ...schema } = properties[name] ?? { type: 'string' };
      const described = wildcard ? 'The rest of the path: it may hold slashes.' : description;
      parameters.push({
        name: wildcard ? WILDCARD_PARAMETER : name,
        in: 'path',
        required: true,
        ...(described ? { description: described } : {}),
        schema,
      });
    }
  }
  if (route.query) {
    const query = jsonSchemaOf(route.query, 'input', `${route.name}_query`, components);
    if (query.type === 'object' && query.properties) {
      for (const [name, schema] of Object.entries(query.properties)) {
        const { description } = schema;
        const required = query.required?.includes(name) ?? false;
        parameters.push({ name, in: 'query', required, ...(description ? { description } : {}), schema });
      }
    } else {
      // Not one object of fields: the whole query as one form-style object (OpenAPI's `style: form, explode`).
      parameters.push({
        name: 'query',
        in: 'query',
        required: false,
        style: 'form',
        explode: true,
        schema: query,
      });
    }
  }
  return parameters;
}

function requestBodyOf(
  route: RouteDefinition & { name: string },
  components: SchemaComponents,
): OpenApiOperation['requestBody'] {
  if (route.kind === 'webhook') {
    return {
      description: 'The delivery exactly as sent: its signature covers these bytes.',
      required: true,
      content: { '*/*': { schema: {} } },
    };
  }
  if (!route.body) return undefined;
  return {
    required: !route.body.safeParse(undefined).success,
    content: {
      'application/json': { schema: jsonSchemaOf(route.body, 'input', `${route.name}_body`, components) },
    },
  };
}

function operationOf(
  route: RouteDefinition & { name: string },
  components: SchemaComponents,
): OpenApiOperation {
  if (route.kind === 'static') throw new Error(`${route.name}: the web app's files are not an operation`);
  const parameters = parametersOf(route, components);
  const requestBody = requestBodyOf(route, components);
  const description = descriptionOf(route);
  return {
    operationId: route.name,
    summary: route.summary,
    ...(description ? { description } : {}),
    tags: [AREA_OF.get(route.name) ?? 'other'],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: { ...errorAnswers(route), ...successAnswers(route, components) },
    security: securityOf(route),
    'x-slipway-access': route.access,
    'x-slipway-kind': route.kind,
  };
}

/**
 * The API as an OpenAPI 3.1 document, from the route table: one operation per route but the web app's
 * files, named by its name in the table and tagged by its area; request schemas as callers send them,
 * answers as the server writes them, and the error answers every route shares.
 */
export function buildOpenApiDocument(
  routes: readonly (RouteDefinition & { name: string })[] = ROUTE_LIST,
): OpenApiDocument {
  const components: SchemaComponents = {
    ErrorBody: jsonSchemaOf(errorBodySchema, 'output', 'ErrorBody', {}),
  };
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    if (route.kind === 'static') continue;
    const method = route.method.toLowerCase() as OpenApiMethod;
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [method]: operationOf(route, components) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Slipway API',
      version: '1.0.0',
      description:
        'Every call the Slipway web app makes, generated from the route table in packages/contract. Errors answer `{error, code, detail?, redirect?}`; `code` is a stable id.',
    },
    // Relative: the server that serves this document (GET /api/openapi.json) answers its calls.
    servers: [{ url: '/', description: 'The Slipway server that serves this document.' }],
    tags: Object.entries(AREAS).map(([name, { description }]) => ({ name, description })),
    paths,
    components: { schemas: components, securitySchemes: SECURITY_SCHEMES },
  };
}
