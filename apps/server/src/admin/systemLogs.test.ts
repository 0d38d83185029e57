import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRotatingLogFile, LOG_FILES } from '../infra/logging/logger.js';
import { signInAdmin } from '../test/adminClient.js';
import { TestClient } from '../test/testClient.js';
import { createTestContext, type TestContext } from '../test/testPlatform.js';
import { readLastLines } from './systemLogs.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe('admin: system logs', () => {
  let ctx: TestContext;
  let admin: TestClient;
  let logDir: string;

  beforeAll(async () => {
    ctx = await createTestContext({ database: 'pglite' });
    admin = await signInAdmin(ctx);
    logDir = path.join(ctx.dataDir, 'logs');
  });
  afterAll(() => ctx.close());

  it('reports a missing log, then tails the API log (at most 1000 lines)', async () => {
    const before = (await admin.get('/api/admin/logs')).json();
    expect(before.services.backend).toEqual({ status: 'missing', file_size: 0, last_modified: null });

    mkdirSync(logDir, { recursive: true });
    const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ level: 30, msg: `line ${i}` }));
    writeFileSync(path.join(logDir, LOG_FILES.backend), `${lines.join('\n')}\n`);

    const services = (await admin.get('/api/admin/logs')).json().services;
    expect(services.backend).toMatchObject({ status: 'available', file_size: expect.any(Number) });
    expect(services.backend.file_size).toBeGreaterThan(50_000);
    expect(Date.parse(services.backend.last_modified)).toBeGreaterThan(Date.now() - 60_000);

    const tail = (await admin.get('/api/admin/logs/backend?lines=100')).json();
    expect(tail.logs).toHaveLength(100);
    expect(tail.logs[0]).toContain('line 2900');
    expect(tail.logs[99]).toContain('line 2999');
    expect((await admin.get('/api/admin/logs/backend?lines=5000')).statusCode).toBe(400);
    expect((await admin.get('/api/admin/logs/backend?lines=1000')).json().logs).toHaveLength(1000);
    expect((await admin.get('/api/admin/logs/database')).statusCode).toBe(400);
  });

  it('writes an access log of the web app requests and serves it as the frontend log', async () => {
    const browser = new TestClient(ctx.app);
    await browser.request('GET', '/repository-picker?tab=1', undefined, { 'user-agent': 'TestBrowser/1.0' });
    await browser.get('/api/health'); // API calls are the backend's, not in the access log
    await settle();
    const tail = (await admin.get('/api/admin/logs/frontend?lines=100')).json();
    expect(tail.logs).toHaveLength(1);
    expect(tail.logs[0]).toMatch(
      /"GET \/repository-picker\?tab=1 HTTP\/1\.1" \d{3} .* "TestBrowser\/1\.0" \d+ms$/,
    );
    expect((await admin.get('/api/admin/logs')).json().services.frontend.status).toBe('available');
  });
});

describe('log files', () => {
  it('reads the tail of a big file and of a file without a final newline', async () => {
    const dir = path.join(process.env.TMPDIR ?? '/tmp', `slipway-tail-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'big.log');
    const line = 'x'.repeat(200);
    writeFileSync(file, `${Array.from({ length: 60_000 }, (_, i) => `${i} ${line}`).join('\n')}`);
    expect(statSync(file).size).toBeGreaterThan(10 * 1024 * 1024);
    const last = await readLastLines(file, 3);
    expect(last.map((l) => l.split(' ')[0])).toEqual(['59997', '59998', '59999']);
    expect(await readLastLines(path.join(dir, 'absent.log'), 10)).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('rotates a file past its size limit, keeping three old ones', async () => {
    const dir = path.join(process.env.TMPDIR ?? '/tmp', `slipway-rotate-${process.pid}`);
    const file = path.join(dir, 'api.log');
    const log = createRotatingLogFile(file, { maxBytes: 1000, keep: 3 });
    for (let i = 0; i < 50; i++) {
      log.write(`${String(i).padStart(3, '0')} ${'y'.repeat(95)}\n`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    log.end();
    await settle();
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(existsSync(`${file}.3`)).toBe(true);
    expect(existsSync(`${file}.4`)).toBe(false);
    expect(statSync(file).size).toBeLessThanOrEqual(1100);
    // Newest lines are in the live file, the ones before in .1, nothing lost in between.
    const current = readFileSync(file, 'utf8').trim().split('\n');
    const previous = readFileSync(`${file}.1`, 'utf8').trim().split('\n');
    expect(current.at(-1)).toMatch(/^049 /);
    expect(Number(current[0]!.slice(0, 3))).toBe(Number(previous.at(-1)!.slice(0, 3)) + 1);
    rmSync(dir, { recursive: true, force: true });
  });
});
