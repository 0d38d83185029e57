import { buildOpenApiDocument } from '@slipway/contract';
import { describe, expect, it } from 'vitest';
import { authLabel, operationsByTag, typeLabel } from './openApiReading';

const doc = buildOpenApiDocument();
const tags = operationsByTag(doc);
const operation = (id: string) => {
  const found = tags.flatMap((tag) => tag.operations).find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
};

describe('reading the OpenAPI document', () => {
  it('groups every operation under its tag, in the document’s tag order', () => {
    expect(tags.map((tag) => tag.name)).toEqual(doc.tags.map((tag) => tag.name));
    const count = Object.values(doc.paths).flatMap((item) => Object.values(item)).length;
    expect(tags.flatMap((tag) => tag.operations)).toHaveLength(count);
    const workspaces = tags.find((tag) => tag.name === 'workspaces');
    expect(workspaces?.operations.find((op) => op.id === 'listWorkspaces')).toMatchObject({
      method: 'GET',
      path: '/api/user-workspaces',
      access: 'whitelisted',
    });
  });

  it('says who may call in words', () => {
    expect(operation('health').auth).toBe('None');
    expect(operation('listWorkspaces').auth).toBe('cookie slipway_session, or Authorization: Bearer slw_…');
    expect(operation('startDeployment').auth).toBe(
      'cookie slipway_session + header X-XSRF-TOKEN, or Authorization: Bearer slw_…',
    );
    expect(authLabel(doc, { ...doc.paths['/api/admin/stats']!.get!, security: [{ unknown: [] }] })).toBe(
      'unknown',
    );
  });

  it('lists parameters with their place, type and whether they are required', () => {
    expect(operation('workspaceLogs').parameters).toEqual([
      {
        name: 'name',
        in: 'path',
        type: expect.stringMatching(/^string/),
        required: true,
        description: 'The workspace name.',
      },
      { name: 'lines', in: 'query', type: 'integer 1–5000', required: false, description: '' },
      { name: 'service', in: 'query', type: 'string ≤ 200', required: false, description: '' },
    ]);
  });

  it('flattens answers into fields: array items as [], nested objects as a.b', () => {
    const answer = operation('listWorkspaces').answers[0];
    expect(answer?.status).toBe('200');
    expect(answer?.type).toBe('array of object');
    const names = answer?.fields.map((field) => field.name) ?? [];
    expect(names).toContain('[].workspace_name');
    expect(names).toContain('[].vm_config.vm_size');
    expect(answer?.fields.find((field) => field.name === '[].workspace_name')?.required).toBe(true);
  });

  it('keeps the error answers apart, each pointing at the error body', () => {
    const { errors, answers } = operation('workspaceDetails');
    expect(errors.map((error) => error.status)).toEqual(['400', '401', '403', '404', '429', 'default']);
    expect(errors[0]?.type).toBe('ErrorBody');
    expect(errors[0]?.fields.map((field) => field.name)).toEqual(['error', 'code', 'detail', 'redirect']);
    expect(answers.map((answer) => answer.status)).toEqual(['200']);
  });

  it('names a type in a few words', () => {
    expect(typeLabel(doc, { type: ['string', 'null'] })).toBe('string | null');
    expect(typeLabel(doc, { enum: ['a', 'b'] })).toBe('"a" | "b"');
    expect(typeLabel(doc, { type: 'string', format: 'date-time' })).toBe('string (date-time)');
    expect(typeLabel(doc, { type: 'object', additionalProperties: { type: 'string' } })).toBe(
      'map of string',
    );
    expect(typeLabel(doc, { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER })).toBe('integer');
    expect(typeLabel(doc, {})).toBe('any');
  });

  it('stops at a recursive schema instead of following it forever', () => {
    const answer = operation('cadvisorContainers').answers[0];
    expect(answer?.fields.length).toBeGreaterThan(5);
    expect(answer?.fields.find((field) => field.name === 'subcontainers')?.type).toMatch(
      /cadvisorContainers_200/,
    );
  });

  it('shows a stream and a redirect by their kind of answer', () => {
    expect(operation('workspaceLogStream').answers[0]).toMatchObject({
      status: '200',
      contentType: 'text/event-stream',
    });
    expect(operation('signIn').answers[0]).toMatchObject({ status: '302', fields: [] });
  });
});
