import { randomUUID } from 'node:crypto';
import {
  type CreatedApiToken,
  errorBodySchema,
  ROUTE_LIST,
  type RouteDefinition,
  type RouteName,
} from '@slipway/contract';
import { REQUEST_SAMPLES } from '@slipway/contract/requestSamples';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signDelivery } from '../deploy-on-push/webhookSignature.js';
import { signInAdmin } from '../test/adminClient.js';
import { checkAnswerAgainstContract } from '../test/contractCheck.js';
import { githubPushPayload } from '../test/githubDeliveries.js';
import { pathSegment, queryString, type WireBody, wireBody } from '../test/hostileInput.js';
import { githubIssueCommentPayload, githubPullRequestPayload } from '../test/pullRequestDeliveries.js';
import { type RawAnswer, rawHttpClient } from '../test/rawHttp.js';
import { insertWorkspace } from '../test/runningWorkspaces.js';
import type { TestClient } from '../test/testClient.js';
import { createTestContext, DATABASES, signInNewUser, type TestContext } from '../test/testPlatform.js';

/** Requests per route and database; FUZZ_RUNS raises it for a longer hunt. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 50);
/**
 * Routes whose every answer takes seconds whatever the input: the admin's container figures read each container
 * of the machine's Docker Engine. A few runs check their refusals; more would only wait.
 */
const FEW_RUNS: Partial<Record<RouteName, number>> = { cadvisorContainers: 6 };

/** The first words of zod's own messages: a sentence that starts so was written by no one for a person. */
const ZOD_PHRASE =
  /^(Invalid input|Invalid option|Invalid string|Invalid UUID|Too small|Too big|Unrecognized key|Invalid element)/;

/** GitHub's deliveries are signed with it, so they reach the events they carry. */
const WEBHOOK_SECRET = 'fuzz-webhook-secret';

const OWN = 'fuzz-own';
const OTHER_OWN = 'fuzz-second';
const THEIRS = 'fuzz-theirs';

type Caller = 'session' | 'token' | 'limitedToken';

interface FuzzRequest {
  caller: Caller;
  path: string;
  body: WireBody;
  /** What GitHub's deliveries carry beside the body (their signature is added when sent). */
  event?: string;
}

/** What a path parameter may plausibly be, so some requests get past the schemas into the handlers. */
const PLAUSIBLE = [
  OWN,
  OTHER_OWN,
  THEIRS,
  randomUUID(),
  'sess_12345678',
  'SOME_KEY',
  'email',
  'backend',
  '1',
  'shop.example.com',
  'someone@example.com',
  'README.md',
  'alert_0123456789abcdef0123',
];

function queryKeysOf(definition: RouteDefinition): string[] {
  const shape = (definition.query as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

/** GitHub's deliveries of the kinds Slipway reads, about a workspace of the fuzzed user's. */
const GITHUB_SAMPLES: unknown[] = [
  githubPushPayload({ owner: 'octo', repo: OWN, branch: 'main', after: 'a'.repeat(40) }),
  githubPullRequestPayload({ action: 'opened', owner: 'octo', repo: OWN, number: 7, sha: 'b'.repeat(40) }),
  githubPullRequestPayload({ action: 'closed', owner: 'octo', repo: OWN, number: 7, sha: 'b'.repeat(40) }),
  githubIssueCommentPayload({
    owner: 'octo',
    repo: OWN,
    number: 7,
    body: '/slipway preview',
    login: 'octo',
    association: 'OWNER',
  }),
];

function samplesOf(name: RouteName): unknown[] {
  if (name === 'githubWebhook') return GITHUB_SAMPLES;
  const body = REQUEST_SAMPLES[name]?.body;
  return body ? [...body.valid, ...body.invalid.map((invalid) => invalid.value)] : [];
}

function requestsFor(definition: RouteDefinition & { name: RouteName }): fc.Arbitrary<FuzzRequest> {
  const segments = definition.path
    .split('/')
    .map((segment) =>
      segment.startsWith(':') || segment === '*' ? pathSegment(PLAUSIBLE) : fc.constant(segment),
    );
  const path = fc
    .tuple(fc.tuple(...segments), queryString(queryKeysOf(definition)))
    .map(([parts, query]) => `${parts.join('/')}${query ? `?${query}` : ''}`);
  const body =
    definition.method === 'GET'
      ? fc.constant<WireBody>({ payload: undefined, contentType: undefined })
      : wireBody(samplesOf(definition.name));
  return fc.record({
    caller: fc.constantFrom<Caller>('session', 'token', 'limitedToken'),
    path,
    body,
    event: fc.constantFrom('push', 'pull_request', 'issue_comment', 'ping'),
  });
}

/** Why an answer breaks the rules (none: undefined): no 5xx, every 4xx the error body in words. */
function problemOf(method: string, path: string, answer: RawAnswer): string | undefined {
  if (answer.status >= 500) return `${answer.status} ${answer.body.slice(0, 300)}`;
  if (answer.status < 400) {
    try {
      checkAnswerAgainstContract(method, path, {
        statusCode: answer.status,
        headers: answer.headers,
        body: answer.body,
      });
    } catch (error) {
      return String(error);
    }
    return undefined;
  }
  if (!String(answer.headers['content-type']).startsWith('application/json'))
    return `${answer.status} as ${answer.headers['content-type']}: ${answer.body.slice(0, 200)}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    return `${answer.status} with a body that is not JSON: ${answer.body.slice(0, 200)}`;
  }
  const body = errorBodySchema.safeParse(parsed);
  if (!body.success) return `${answer.status} not in the error body: ${answer.body.slice(0, 300)}`;
  const { error } = body.data;
  // A sentence: not zod's words, not `field: …` glued to them, no raw NUL.
  if (!error || ZOD_PHRASE.test(error) || /^[\w.]+: /.test(error) || error.includes('\u0000'))
    return `${answer.status} not a sentence: ${JSON.stringify(error)}`;
  if (error.length > 400) return `${answer.status} an error of ${error.length} characters`;
  return undefined;
}

/**
 * Issue 39: every route of the table, driven with generated path parameters, query strings and bodies by a
 * signed-in session (with an admin session beside it) and by API tokens, one limited to a workspace: no answer
 * is a 5xx, every 4xx is the documented error body in words, and the server logs no error.
 */
describe.each(DATABASES)('every route with hostile input (%s)', (database) => {
  let ctx: TestContext;
  let http: Awaited<ReturnType<typeof rawHttpClient>>;
  let owner: { client: TestClient; userId: string };
  let stranger: { userId: string };
  const errorLines: string[] = [];
  const headers = {} as Record<Caller, Record<string, string>>;

  /**
   * A user session and an admin session beside it, new whenever the last route ended them (a sign-in starts
   * a new session, logout and Redis flushes end them): each route is called signed in.
   */
  async function ensureSignedIn() {
    if (headers.session) {
      const user = await http.request('GET', '/api/user', headers.session, undefined);
      const admin = await http.request('GET', '/api/admin/session-status', headers.session, undefined);
      if (user.status === 200 && admin.body.includes('"isAdmin":true')) return;
    }
    const session = await ctx.platform.sessions.create({ userId: owner.userId });
    const xsrf = ctx.platform.sessions.xsrfTokenFor(session.id);
    const adminCookie = (await signInAdmin(ctx)).cookies.get('slipway_admin');
    headers.session = {
      cookie: `slipway_session=${session.id}; XSRF-TOKEN=${xsrf}; slipway_admin=${adminCookie}`,
      'x-xsrf-token': xsrf,
    };
  }

  async function ensureWorkspaces() {
    const names = new Set(
      (await ctx.platform.runningApps.workspacesRepo.listForUser(owner.userId)).map((row) => row.name),
    );
    for (const name of [OWN, OTHER_OWN]) {
      if (!names.has(name)) await insertWorkspace(ctx.platform, { userId: owner.userId, name });
    }
    if ((await ctx.platform.runningApps.workspacesRepo.listForUser(stranger.userId)).length === 0)
      await insertWorkspace(ctx.platform, { userId: stranger.userId, name: THEIRS });
  }

  beforeAll(async () => {
    const logger = pino({ level: 'error' }, { write: (line: string) => errorLines.push(line) });
    ctx = await createTestContext({ database, logger, env: { GITHUB_WEBHOOK_SECRET: WEBHOOK_SECRET } });
    owner = await signInNewUser(ctx);
    stranger = await signInNewUser(ctx);
    await ensureWorkspaces();
    const token = async (workspaces: string[] | null) =>
      (
        (
          await owner.client.post('/api/api-tokens', {
            name: `fuzz ${workspaces ? 'limited' : 'full'}`,
            scopes: ['write', 'secrets:read'],
            expires_in_days: null,
            workspaces,
          })
        ).json() as CreatedApiToken
      ).token;
    headers.token = { authorization: `Bearer ${await token(null)}` };
    headers.limitedToken = { authorization: `Bearer ${await token([OWN])}` };
    http = await rawHttpClient(ctx.app);
  });
  afterAll(async () => {
    http?.close();
    await ctx?.close();
  });
  beforeEach(async () => {
    errorLines.length = 0;
    // Each route starts signed in, with its callers' budgets whole and the workspaces it may have deleted back.
    await ctx.platform.kv.flush('ratelimit');
    await ensureSignedIn();
    await ensureWorkspaces();
  });

  for (const definition of ROUTE_LIST) {
    it(`${definition.name}: ${definition.method} ${definition.path}`, async () => {
      const seen = new Set<number>();
      await fc.assert(
        fc.asyncProperty(requestsFor(definition), async ({ caller, path, body, event }) => {
          const delivery: Record<string, string> =
            definition.name === 'githubWebhook'
              ? {
                  'x-github-event': event ?? 'push',
                  'x-github-delivery': randomUUID(),
                  'x-hub-signature-256': signDelivery(WEBHOOK_SECRET, body.payload ?? ''),
                }
              : {};
          const answer = await http.request(
            definition.method,
            path,
            {
              ...headers[caller],
              ...delivery,
              ...(body.contentType ? { 'content-type': body.contentType } : {}),
            },
            body.payload,
          );
          seen.add(answer.status);
          const problem = problemOf(definition.method, path, answer);
          expect(problem, `${caller} ${definition.method} ${path.slice(0, 200)}`).toBeUndefined();
        }),
        { numRuns: Math.min(RUNS, FEW_RUNS[definition.name] ?? RUNS) },
      );
      expect(errorLines, 'the server logged errors').toEqual([]);
      expect(seen.size).toBeGreaterThan(0);
    });
  }
});
