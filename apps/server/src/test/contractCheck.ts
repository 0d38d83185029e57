import { ROUTE_LIST, type RouteDefinition, type RouteName, responseSchemaFor } from '@slipway/contract';
import type { LightMyRequestResponse } from 'fastify';

type TableRoute = RouteDefinition & { name: RouteName };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Routes as matchers, most specific first: more literal segments win over parameters (as in Fastify). */
const MATCHERS = ROUTE_LIST.filter((definition) => definition.kind !== 'static')
  .map((definition) => {
    const segments = definition.path.split('/');
    const pattern = segments
      .map((segment) => {
        if (segment.startsWith(':')) return '[^/]+';
        return segment === '*' ? '.*' : escapeRegExp(segment);
      })
      .join('/');
    const literals = segments.filter((segment) => segment && !segment.startsWith(':') && segment !== '*');
    return { definition, regExp: new RegExp(`^${pattern}$`), literals: literals.length };
  })
  .sort((a, b) => b.literals - a.literals);

/** The table's route for a request, or undefined for a path the table does not know. */
export function findTableRoute(method: string, url: string): TableRoute | undefined {
  const pathname = url.split('?')[0] ?? url;
  return MATCHERS.find(({ definition, regExp }) => definition.method === method && regExp.test(pathname))
    ?.definition;
}

export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

/**
 * Throws when a JSON answer does not parse with the contract's schema for its route and status, or
 * when a JSON route answers a success status the contract does not declare.
 */
export function checkAnswerAgainstContract(
  method: string,
  url: string,
  response: Pick<LightMyRequestResponse, 'statusCode' | 'headers' | 'body'>,
) {
  const definition = findTableRoute(method, url);
  if (!definition) return;
  const contentType = String(response.headers['content-type'] ?? '');
  if (!contentType.startsWith('application/json')) return;
  const where = `${definition.name} (${method} ${definition.path}) answered ${response.statusCode}`;
  const schema = responseSchemaFor(definition, response.statusCode);
  if (!schema) {
    throw new ContractViolation(`${where} with JSON, but the contract declares no answer for that status`);
  }
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    throw new ContractViolation(`${where} with a body that is not JSON: ${response.body.slice(0, 200)}`);
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    const issues = result.error.issues
      .slice(0, 10)
      .map((issue) => `  - ${issue.path.join('.') || '(root)'}: ${issue.message} [${issue.code}]`)
      .join('\n');
    throw new ContractViolation(
      `${where} with a body the contract refuses:\n${issues}\nbody: ${response.body.slice(0, 500)}`,
    );
  }
}
