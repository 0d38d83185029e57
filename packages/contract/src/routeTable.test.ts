import { describe, expect, it } from 'vitest';
import { buildPath, pathParamNames, responseSchemaFor } from './route.js';
import { ROUTE_LIST, ROUTES } from './routes.js';

const routeKey = (definition: { method: string; path: string }) => `${definition.method} ${definition.path}`;

describe('the route table', () => {
  it('lists each method and path once', () => {
    const keys = ROUTE_LIST.map(routeKey);
    const duplicates = keys.filter((key, index) => keys.indexOf(key) !== index);
    expect(duplicates).toEqual([]);
  });

  it('has a params schema entry for every path parameter, and none for parameters the path lacks', () => {
    const problems = ROUTE_LIST.flatMap((definition) => {
      const names = pathParamNames(definition.path);
      const declared = Object.keys(definition.params?.shape ?? {});
      return [
        ...names
          .filter((name) => !declared.includes(name))
          .map((name) => `${definition.name}: ${name} missing`),
        ...declared
          .filter((name) => !names.includes(name))
          .map((name) => `${definition.name}: ${name} unused`),
      ];
    });
    expect(problems).toEqual([]);
  });

  it('declares a success answer for every JSON route, and none for streams and redirects', () => {
    for (const definition of ROUTE_LIST) {
      const statuses = Object.keys(definition.responses).map(Number);
      const success = statuses.filter((status) => status >= 200 && status < 300);
      if (definition.kind === 'json' || definition.kind === 'webhook') {
        expect(success, definition.name).toHaveLength(1);
      } else {
        expect(statuses, definition.name).toEqual([]);
      }
    }
  });

  it('takes no body on GET and DELETE', () => {
    const withBody = ROUTE_LIST.filter(
      (definition) => (definition.method === 'GET' || definition.method === 'DELETE') && definition.body,
    ).map((definition) => definition.name);
    expect(withBody).toEqual([]);
  });

  it('keeps every API path under /api/ and the web app as the only other route', () => {
    const outside = ROUTE_LIST.filter((definition) => !definition.path.startsWith('/api/'));
    expect(outside.map((definition) => `${definition.kind} ${routeKey(definition)}`)).toEqual([
      'static GET /*',
    ]);
  });

  it('answers error statuses with the error body unless a route says otherwise', () => {
    const schema = responseSchemaFor(ROUTES.currentUser, 401);
    expect(schema?.safeParse({ error: 'Please sign in to continue', code: 'unauthenticated' }).success).toBe(
      true,
    );
    expect(schema?.safeParse({ message: 'nope' }).success).toBe(false);
    expect(responseSchemaFor(ROUTES.currentUser, 204)).toBeUndefined();
    expect(responseSchemaFor(ROUTES.currentUser, 200)).toBe(ROUTES.currentUser.responses[200]);
  });
});

describe('paths', () => {
  it('names the parameters of a path in order', () => {
    expect(pathParamNames(ROUTES.repositoryContents.path)).toEqual(['owner', 'repo', '*']);
    expect(pathParamNames(ROUTES.listWorkspaces.path)).toEqual([]);
  });

  it('fills parameters URL-encoded, keeping the slashes of the wildcard', () => {
    expect(buildPath(ROUTES.removeWhitelistEmail.path, { email: 'a+b@x.co' })).toBe(
      '/api/admin/whitelist/emails/a%2Bb%40x.co',
    );
    expect(buildPath(ROUTES.repositoryContents.path, { owner: 'o', repo: 'r', '*': 'src/a b.ts' })).toBe(
      '/api/github/repos/o/r/contents/src/a%20b.ts',
    );
    expect(buildPath(ROUTES.workspaceDetails.path, { name: '../admin' })).toBe(
      '/api/workspace-details/..%2Fadmin',
    );
    expect(() => buildPath(ROUTES.workspaceDetails.path, {})).toThrow('parameter name is missing');
  });
});
