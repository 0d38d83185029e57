import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/testPlatform.js';
import { buildApp, WEB_DIST } from './app.js';

// The web app as `npm run build` made it (scripts/test.sh builds it before the tests run).
describe('the built web app, as the server sends it', () => {
  let ctx: TestContext;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let entry: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    app = await buildApp(ctx.platform);
    const html = readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');
    entry = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(entry, 'index.html names its entry script').toMatch(/^\/assets\/.+\.js$/);
  });

  afterAll(async () => {
    await app?.close();
    await ctx?.close();
  });

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it('sends the entry script Brotli- or gzip-compressed as the browser accepts, the same bytes once decoded', async () => {
    const original = readFileSync(path.join(WEB_DIST, entry));
    const br = await get(entry, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(original)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(original.length / 2);
    expect(String(br.headers['content-type'])).toContain('javascript');

    const gzip = await get(entry, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).equals(original)).toBe(true);

    const plain = await get(entry);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(original)).toBe(true);
  });
});
