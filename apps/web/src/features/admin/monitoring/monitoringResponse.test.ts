import { describe, expect, it } from 'vitest';
import {
  HTML_INSTEAD_OF_JSON,
  INVALID_FORMAT,
  MACHINE_NOT_JSON,
  parseContainersResponse,
  parseMachineResponse,
  unansweredIn,
} from './monitoringResponse';

const json = (status: number, body: unknown) => ({
  status,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify(body),
});

describe('parseMachineResponse', () => {
  it('returns the machine info', () => {
    expect(parseMachineResponse(json(200, { num_cores: 4 })).num_cores).toBe(4);
  });
  it('names the HTTP status or the non-JSON answer', () => {
    expect(() => parseMachineResponse(json(502, {}))).toThrow('Machine API error: HTTP 502');
    expect(() => parseMachineResponse({ status: 200, contentType: 'text/html', body: '<html>' })).toThrow(
      MACHINE_NOT_JSON,
    );
    expect(() => parseMachineResponse({ status: 200, contentType: 'text/plain', body: 'x' })).toThrow(
      MACHINE_NOT_JSON,
    );
  });
});

describe('parseContainersResponse', () => {
  it('returns the candidates of a root container', () => {
    expect(parseContainersResponse(json(200, { name: '/', subcontainers: [{ name: '/a' }] }))).toHaveLength(
      2,
    );
  });
  it('reports HTTP errors with the server text', () => {
    expect(() => parseContainersResponse(json(401, { error: 'Admin session required' }))).toThrow(
      'HTTP 401: Admin session required',
    );
    expect(() => parseContainersResponse({ status: 500, contentType: 'text/plain', body: 'boom' })).toThrow(
      'HTTP 500: boom',
    );
  });
  it('refuses HTML and shapes that are not containers', () => {
    const html = { status: 200, contentType: 'text/html', body: '<!doctype html><html></html>' };
    expect(() => parseContainersResponse(html)).toThrow(HTML_INSTEAD_OF_JSON);
    expect(() => parseContainersResponse(json(200, 42))).toThrow(INVALID_FORMAT);
    expect(() =>
      parseContainersResponse({ status: 200, contentType: 'application/json', body: '{' }),
    ).toThrow(INVALID_FORMAT);
  });
});

describe('unansweredIn', () => {
  it("reads the containers the engine did not answer about from Slipway's root, and nothing elsewhere", () => {
    const stuck = {
      id: 'abc',
      name: 'tar',
      sentence: 'The Docker Engine did not answer within 15 s when asked …',
    };
    expect(unansweredIn(json(200, { name: '/', subcontainers: [], unanswered: [stuck, { id: 1 }] }))).toEqual(
      [stuck],
    );
    expect(unansweredIn(json(200, { name: '/', subcontainers: [] }))).toEqual([]);
    expect(unansweredIn({ status: 200, contentType: 'text/html', body: '<html>' })).toEqual([]);
  });
});
