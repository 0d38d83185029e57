import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildOpenApiDocument } from '@slipway/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';

describe('GET /api/openapi.json', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => ctx?.close());

  it('answers the OpenAPI document to anyone, the same bytes each time', async () => {
    // TestClient parses the answer with the contract's schema for this route.
    const client = new TestClient(ctx.app);
    const first = await client.get('/api/openapi.json');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.json()).toEqual(buildOpenApiDocument());
    expect(first.json().paths['/api/openapi.json'].get.operationId).toBe('openApiDocument');
    const second = await client.get('/api/openapi.json');
    expect(second.body).toBe(first.body);
  });

  it('sends the Brotli or gzip copy to a client that accepts it', async () => {
    const plain = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const answer = await ctx.app.inject({
        method: 'GET',
        url: '/api/openapi.json',
        headers: { 'accept-encoding': `${encoding}, deflate` },
      });
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers.vary).toContain('accept-encoding');
      expect(answer.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);
      expect(decode(answer.rawPayload).toString()).toBe(plain.body);
    }
  });
});
