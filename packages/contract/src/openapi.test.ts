import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { JsonSchema, OpenApiDocument, OpenApiMethod } from './openApiDocument.js';
import { openApiDocumentSchema } from './openApiDocument.js';
import { buildOpenApiDocument, openApiPath } from './openapi.js';
import { route } from './route.js';
import { ROUTE_LIST, ROUTES } from './routes.js';

const document = buildOpenApiDocument();
const operationOf = (definition: { method: string; path: string }) =>
  document.paths[openApiPath(definition.path)]?.[definition.method.toLowerCase() as OpenApiMethod];

/** Validates against the official OpenAPI 3.1 JSON Schema (spec.openapis.org/oas/3.1/schema), which the package ships. */
async function validateOpenApi(candidate: unknown) {
  const validator = new Validator();
  const result = await validator.validate(candidate as Record<string, unknown>);
  return { ...result, version: validator.version };
}

/** Every JSON Schema in the document: parameters, bodies, answers and the named components. */
function schemasIn(doc: OpenApiDocument): [string, JsonSchema][] {
  const found: [string, JsonSchema][] = Object.entries(doc.components.schemas).map(([name, schema]) => [
    `components.schemas.${name}`,
    schema,
  ]);
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const where = `${method} ${path}`;
      for (const parameter of operation.parameters ?? [])
        found.push([`${where} ${parameter.name}`, parameter.schema]);
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
        found.push([`${where} body ${type}`, media.schema]);
      }
      for (const [status, answer] of Object.entries(operation.responses)) {
        for (const [type, media] of Object.entries(answer.content ?? {})) {
          found.push([`${where} ${status} ${type}`, media.schema]);
        }
      }
    }
  }
  return found;
}

// The validators compile large schemas: seconds each on a loaded machine, past vitest's 5 s.
describe('the OpenAPI document', { timeout: 30_000 }, () => {
  it('is valid OpenAPI 3.1 by the official schema', async () => {
    const result = await validateOpenApi(document);
    expect(result.errors).toBeUndefined();
    expect(result).toMatchObject({ valid: true, version: '3.1' });
  });

  it('is refused by the same validator when it is broken', async () => {
    const copy = () => structuredClone(document) as Record<string, unknown> & OpenApiDocument;
    const noInfo = copy();
    delete (noInfo as Partial<OpenApiDocument>).info;
    const answerWithoutDescription = copy();
    const health = answerWithoutDescription.paths['/api/health']?.get?.responses[200];
    delete (health as Partial<{ description: string }>).description;
    const unknownParameterPlace = copy();
    const details = unknownParameterPlace.paths['/api/workspace-details/{name}']?.get?.parameters?.[0];
    (details as { in: string }).in = 'body';
    const danglingReference = copy();
    danglingReference.components.schemas = {};

    for (const broken of [noInfo, answerWithoutDescription, unknownParameterPlace, danglingReference]) {
      expect((await validateOpenApi(broken)).valid).toBe(false);
    }
  });

  it('holds only valid JSON Schemas (2020-12), each reference naming a component', () => {
    const ajv = new Ajv2020({ strict: false });
    const problems: string[] = [];
    for (const [where, schema] of schemasIn(document)) {
      if (!ajv.validateSchema(schema)) problems.push(`${where}: ${ajv.errorsText(ajv.errors)}`);
      for (const [, ref] of JSON.stringify(schema).matchAll(/"\$ref":"([^"]*)"/g)) {
        const name = ref?.replace('#/components/schemas/', '');
        if (!name || !(name in document.components.schemas)) problems.push(`${where}: $ref ${ref}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('is the shape the contract declares for GET /api/openapi.json', () => {
    expect(openApiDocumentSchema.safeParse(document).success).toBe(true);
    expect(ROUTES.openApiDocument.responses[200]).toBe(openApiDocumentSchema);
  });

  it('has every route of the table but the web app, under its method, its name and its area', () => {
    const missing = ROUTE_LIST.filter((definition) => definition.kind !== 'static')
      .filter((definition) => operationOf(definition)?.operationId !== definition.name)
      .map((definition) => definition.name);
    expect(missing).toEqual([]);
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(ROUTE_LIST.length - 1);
    expect(operationOf(ROUTES.listWorkspaces)?.tags).toEqual(['workspaces']);
    expect(operationOf(ROUTES.startDeployment)?.tags).toEqual(['deployments']);
    expect(operationOf(ROUTES.openApiDocument)?.tags).toEqual(['reference']);
    expect(document.paths['/*']).toBeUndefined();
    expect(document.tags.map((tag) => tag.name)).toEqual([
      ...new Set(operations.flatMap((operation) => operation.tags)),
    ]);
  });

  it('describes every declared answer of every route with a schema', () => {
    const undescribed = ROUTE_LIST.filter((definition) => definition.kind !== 'static').flatMap(
      (definition) => {
        const answers = operationOf(definition)?.responses ?? {};
        const statuses = Object.keys(definition.responses);
        if (definition.kind === 'sse') statuses.push('200');
        return statuses
          .filter((status) => {
            const content = answers[status]?.content ?? {};
            const media =
              definition.kind === 'sse' ? content['text/event-stream'] : content['application/json'];
            return !media?.schema || !answers[status]?.description;
          })
          .map((status) => `${definition.name} ${status}`);
      },
    );
    expect(undescribed).toEqual([]);
    const redirects = ROUTE_LIST.filter((definition) => definition.kind === 'redirect');
    expect(redirects.length).toBeGreaterThan(0);
    for (const definition of redirects) {
      expect(operationOf(definition)?.responses[302]?.headers?.Location, definition.name).toBeDefined();
    }
  });

  it('names path parameters in braces, the wildcard as {path}', () => {
    expect(openApiPath('/api/github/repos/:owner/:repo/contents/*')).toBe(
      '/api/github/repos/{owner}/{repo}/contents/{path}',
    );
    const parameters = operationOf(ROUTES.repositoryContents)?.parameters ?? [];
    expect(parameters.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(['owner', 'repo', 'path']);
    expect(parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(['ref']);
  });

  it('answers errors with the error body, as the access level and the inputs imply', () => {
    const statuses = (name: keyof typeof ROUTES) => Object.keys(operationOf(ROUTES[name])?.responses ?? {});
    // A public call answers a token that is not valid with 401, as every other call does.
    expect(statuses('health')).toEqual(['200', '401', 'default']);
    // Open to tokens: refused for a missing scope (403), limited per token (429).
    expect(statuses('currentUser')).toEqual(['200', '401', '403', '429', 'default']);
    expect(statuses('workspaceDetails')).toEqual(['200', '400', '401', '403', '404', '429', 'default']);
    // Closed to tokens: 403 `insufficient_scope`.
    expect(statuses('adminStats')).toEqual(['200', '401', '403', 'default']);
    // Signed out but state-changing: the anti-forgery token still applies; limited per client.
    expect(statuses('enterpriseContact')).toEqual(['201', '400', '401', '403', '429', 'default']);
    expect(statuses('githubWebhook')).toEqual(['200', '400', '401', 'default']);
    const error = operationOf(ROUTES.workspaceDetails)?.responses[404]?.content?.['application/json']?.schema;
    expect(error).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    expect(document.components.schemas.ErrorBody?.required).toEqual(['error', 'code']);
  });

  it('asks for the session cookie (with the anti-forgery header when state changes) or a token, by access', () => {
    expect(operationOf(ROUTES.health)?.security).toEqual([]);
    expect(operationOf(ROUTES.enterpriseContact)?.security).toEqual([]);
    expect(operationOf(ROUTES.enterpriseContact)?.description).toContain('X-XSRF-TOKEN');
    // A token is offered with the scope the token rules ask for, and not at all where they refuse tokens.
    expect(operationOf(ROUTES.listWorkspaces)?.security).toEqual([
      { sessionCookie: [] },
      { slipwayToken: ['read'] },
    ]);
    expect(operationOf(ROUTES.startDeployment)?.security).toEqual([
      { sessionCookie: [], xsrfToken: [] },
      { slipwayToken: ['deploy'] },
    ]);
    expect(operationOf(ROUTES.createApiToken)?.security).toEqual([{ sessionCookie: [], xsrfToken: [] }]);
    expect(operationOf(ROUTES.deleteVm)?.security).toEqual([{ adminSessionCookie: [], xsrfToken: [] }]);
    expect(document.components.securitySchemes.slipwayToken).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(document.components.securitySchemes.xsrfToken).toMatchObject({
      in: 'header',
      name: 'X-XSRF-TOKEN',
    });
  });

  it('describes requests as sent and answers as written, and any zod type it cannot express as any value', async () => {
    const doc = buildOpenApiDocument([
      {
        ...route({
          method: 'POST',
          path: '/api/example/:id',
          summary: 'Do an example',
          kind: 'json',
          access: 'user',
          params: z.object({ id: z.string() }),
          query: z.object({ lines: z.coerce.number().int().default(100) }),
          body: z.object({
            at: z.iso.datetime().transform((text) => new Date(text)),
            tag: z.string().default('x'),
          }),
          responses: { 200: z.object({ when: z.date(), count: z.number().transform(String) }) },
          note: 'An example.',
        }),
        name: 'example',
      },
    ]);
    expect((await validateOpenApi(doc)).valid).toBe(true);
    const operation = doc.paths['/api/example/{id}']?.post;
    expect(operation?.description).toBe('An example.');
    expect(operation?.parameters?.find((p) => p.name === 'lines')).toMatchObject({
      in: 'query',
      required: false,
    });
    const body = operation?.requestBody?.content['application/json']?.schema;
    expect(body?.required).toEqual(['at']);
    expect(body?.properties?.at).toMatchObject({ type: 'string', format: 'date-time' });
    const answer = operation?.responses[200]?.content?.['application/json']?.schema;
    expect(answer?.properties?.when).toEqual({});
    expect(answer?.properties?.count).toEqual({});
  });

  it('moves a recursive schema to the components, its self-reference pointing there', () => {
    const answer = operationOf(ROUTES.cadvisorContainers)?.responses[200]?.content?.['application/json']
      ?.schema;
    expect(answer).toEqual({ $ref: '#/components/schemas/cadvisorContainers_200' });
    const component = JSON.stringify(document.components.schemas.cadvisorContainers_200);
    expect(component).toContain('"$ref":"#/components/schemas/cadvisorContainers_200"');
    expect(component).not.toContain('"$ref":"#"');
  });
});
