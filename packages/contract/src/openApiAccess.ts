import type { JsonSchema, OpenApiResponse, OpenApiSecurityScheme } from './openApiDocument.js';
import { pathParamNames, type RouteDefinition } from './route.js';
import { TOKEN_RULES, type TokenRule } from './tokenRules.js';

/** What a route's access level and method say about calling it: how to authenticate, and the errors it implies. */

export const SECURITY_SCHEMES = {
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'slipway_session',
    description:
      'The session a sign-in starts (`__Host-slipway_session` in production, over HTTPS). HttpOnly: the browser sends it by itself.',
  },
  adminSessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'slipway_admin',
    description:
      'The admin panel’s session, started by POST /api/admin/auth with the admin password (`__Host-slipway_admin` in production).',
  },
  xsrfToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-XSRF-TOKEN',
    description:
      'Anti-forgery token: every POST, PUT and DELETE but a webhook sends the value of the XSRF-TOKEN cookie the server sets (axios does it by default), signed in or not; without it the answer is 403 `xsrf_mismatch`.',
  },
  slipwayToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'slw_…',
    description:
      'An API token (Account Settings → API Tokens), sent as `Authorization: Bearer slw_…`, in place of the session cookie and the anti-forgery header. The names listed with it on an operation are the scopes it needs (`write` includes `deploy` and `read`; `deploy` and `secrets:read` include `read`); an operation that needs a session and does not list it refuses tokens (403 `insufficient_scope`), a public one answers a token as it answers anyone. A token that is not valid is refused everywhere (401 `unauthenticated`). 300 requests a minute per token: every answer to a token carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds until the window restarts), and past the limit a 429 says how long to wait in `Retry-After`. A stream opened with a token ends when the token is revoked or expires.',
  },
} satisfies Record<string, OpenApiSecurityScheme>;

type SecurityRequirement = { [S in keyof typeof SECURITY_SCHEMES]?: string[] };

const changesState = (route: RouteDefinition) => route.method !== 'GET';

/** The route's token rule; a route outside the table (a test's) takes no token. */
const ruleOf = (route: { name: string }): TokenRule =>
  (TOKEN_RULES as Partial<Record<string, TokenRule>>)[route.name] ?? { scope: 'never' };

/** Whether an API token may call the route with some scope (the public routes aside). */
const takesTokens = (rule: TokenRule) => rule.scope !== 'never' && rule.scope !== 'public';

/** How a caller of this route authenticates; `[]` for a public route (anti-forgery aside: see its description). */
export function securityOf(route: RouteDefinition & { name: string }): SecurityRequirement[] {
  const xsrf: SecurityRequirement = changesState(route) ? { xsrfToken: [] } : {};
  const rule = ruleOf(route);
  switch (route.access) {
    case 'public':
    case 'loopback':
      return [];
    case 'admin':
      return [{ adminSessionCookie: [], ...xsrf }];
    default:
      return [
        { sessionCookie: [], ...xsrf },
        ...(rule.scope === 'never' || rule.scope === 'public' ? [] : [{ slipwayToken: [rule.scope] }]),
      ];
  }
}

const ERROR_BODY_REF: JsonSchema = { $ref: '#/components/schemas/ErrorBody' };

const errorAnswer = (description: string): OpenApiResponse => ({
  description,
  content: { 'application/json': { schema: ERROR_BODY_REF } },
});

const RATE_LIMIT_HEADERS: OpenApiResponse['headers'] = {
  'Retry-After': {
    description: 'Seconds until the window restarts: wait this long before trying again.',
    schema: { type: 'integer', minimum: 1 },
  },
  'RateLimit-Limit': { description: 'Requests allowed per window.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in this window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window restarts.', schema: { type: 'integer' } },
};

/** The error answers the route's access level, token rule and inputs imply; others are under `default`. */
export function errorAnswers(route: RouteDefinition & { name: string }): Record<string, OpenApiResponse> {
  const answers: Record<string, OpenApiResponse> = {};
  const rule = ruleOf(route);
  if (route.kind === 'webhook') answers[400] = errorAnswer('The delivery is not verified or cannot be read.');
  else if (route.params || route.query || route.body) {
    answers[400] = errorAnswer('A path parameter, the query or the body is invalid (`invalid_request`).');
  }
  if (route.access === 'admin') answers[401] = errorAnswer('No admin session (`unauthenticated`).');
  else if (route.access !== 'public' && route.access !== 'loopback')
    answers[401] = errorAnswer('Not signed in, or the API token is not valid (`unauthenticated`).');
  else answers[401] = errorAnswer('An API token was sent and is not valid (`unauthenticated`): send none.');
  const forbidden = [
    route.access === 'whitelisted' && 'signed in but not whitelisted (`not_whitelisted`)',
    changesState(route) &&
      route.kind !== 'webhook' &&
      'the anti-forgery token is missing or wrong (`xsrf_mismatch`)',
    takesTokens(rule) &&
      'the API token lacks the scope or the workspace this call needs (`insufficient_scope`)',
    rule.scope === 'never' && 'API tokens cannot call it: sign in instead (`insufficient_scope`)',
  ].filter((reason): reason is string => Boolean(reason));
  if (forbidden.length > 0) {
    const text = forbidden.join('; or ');
    answers[403] = errorAnswer(`${text[0]?.toUpperCase()}${text.slice(1)}.`);
  }
  if (pathParamNames(route.path).length > 0) {
    answers[404] = errorAnswer(
      'Nothing the caller may see matches the path (`not_found`, `workspace_not_found`).',
    );
  }
  if (takesTokens(rule) || route.rateLimited) {
    answers[429] = {
      ...errorAnswer(
        route.rateLimited
          ? 'Too many attempts from this client, or requests with this API token (`rate_limited`).'
          : 'Too many requests with this API token (`rate_limited`).',
      ),
      headers: RATE_LIMIT_HEADERS,
    };
  }
  answers.default = errorAnswer(
    'Any other error — a conflict (409), a body too large (413), an address too long (414), a server or upstream failure (5xx) — with the same body.',
  );
  return answers;
}

/** The route's note, and for a public state-changing call the anti-forgery header it still needs. */
export function descriptionOf(route: RouteDefinition): string | undefined {
  const xsrf =
    route.access === 'public' && changesState(route) && route.kind !== 'webhook'
      ? 'Send the X-XSRF-TOKEN header (the XSRF-TOKEN cookie’s value), signed in or not.'
      : undefined;
  return [route.note, xsrf].filter(Boolean).join(' ') || undefined;
}
