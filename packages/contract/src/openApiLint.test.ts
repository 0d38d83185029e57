import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import type { OpenApiOperation } from './openApiDocument.js';
import { buildOpenApiDocument } from './openapi.js';
import { TOKEN_RULES, type TokenRule } from './tokenRules.js';

const document = buildOpenApiDocument();
const operations = Object.values(document.paths).flatMap((item) =>
  Object.values(item).filter((operation): operation is OpenApiOperation => Boolean(operation)),
);

// The validators compile large schemas: seconds each on a loaded machine, past vitest's 5 s.
describe('the OpenAPI document by redocly', { timeout: 30_000 }, () => {
  it("passes redocly's recommended rules with no error, and no warning but the license it has none of", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: 'openapi.json',
      config,
    });
    const said = problems.map(
      (problem) =>
        `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`,
    );
    expect(said.filter((line) => line.startsWith('error'))).toEqual([]);
    // Slipway ships no license file for the document to name.
    expect(said).toEqual(['warn info-license: Info object should contain `license` field. at #/info']);
  });

  it('is refused by the same rules when two paths differ only in a parameter name', async () => {
    const broken = structuredClone(document);
    const details = broken.paths['/api/workspace-details/{name}'];
    broken.paths['/api/workspace-details/{workspace}'] = structuredClone(details ?? {});
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(broken), absoluteRef: 'x.json', config });
    expect(problems.filter((problem) => problem.severity === 'error').map((p) => p.ruleId)).toContain(
      'no-identical-paths',
    );
  });

  it('gives every operation a summary', () => {
    expect(operations.filter((operation) => !operation.summary).map((o) => o.operationId)).toEqual([]);
  });

  it('names insufficient_scope in the 403 of every operation a token can be refused on', () => {
    const unnamed = operations
      .filter((operation) => {
        const rule: TokenRule = TOKEN_RULES[operation.operationId as keyof typeof TOKEN_RULES];
        return rule.scope !== 'public';
      })
      .filter((operation) => !operation.responses[403]?.description.includes('`insufficient_scope`'))
      .map((operation) => operation.operationId);
    expect(unnamed).toEqual([]);
  });

  it('lists a 429 with Retry-After and the RateLimit headers wherever a limit applies', () => {
    const limited = operations.filter((operation) => operation.responses[429]);
    expect(limited.map((operation) => operation.operationId)).toEqual(
      expect.arrayContaining(['listWorkspaces', 'startDeployment', 'adminSignIn', 'enterpriseContact']),
    );
    for (const operation of limited) {
      expect(Object.keys(operation.responses[429]?.headers ?? {}), operation.operationId).toEqual([
        'Retry-After',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
      ]);
    }
  });
});
