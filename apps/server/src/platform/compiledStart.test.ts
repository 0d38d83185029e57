import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../config/config.js';
import { freePort } from '../test/fixtures/freePort.js';

describe('the production start (npm start without its web build)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-compiled-'));
  let stop = async () => {};
  afterAll(async () => {
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('compiles the server and runs it as one Node process on JavaScript that serves the API', async () => {
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: REPOSITORY_ROOT, stdio: 'pipe' });
    // What the compiled server finds beside itself: the migrations and the compose check worker.
    const dist = path.join(REPOSITORY_ROOT, 'apps/server/dist');
    expect(existsSync(path.join(dist, 'infra/db/migrations/meta/_journal.json'))).toBe(true);
    expect(existsSync(path.join(dist, 'compose-policy/composeCheckWorker.js'))).toBe(true);
    // Every file the server's code reads beside itself (all of src that is not TypeScript, tests aside).
    const src = path.join(REPOSITORY_ROOT, 'apps/server/src');
    const assets = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (file) => !file.endsWith('.ts') && !file.split(path.sep).includes('test') && path.extname(file) !== '',
    );
    expect(assets).toContain(path.join('infra', 'compose', 'spec', 'compose-spec.json'));
    expect(assets.filter((file) => !existsSync(path.join(dist, file)))).toEqual([]);
    // The compiled compose check worker reads a project (the Compose Specification's schema included).
    const repo = path.join(dataDir, 'repo');
    mkdirSync(repo);
    writeFileSync(path.join(repo, 'compose.yaml'), 'services:\n  web:\n    image: busybox:1.36\n');
    const script = path.join(dataDir, 'check.mjs');
    writeFileSync(
      script,
      `const { runCheckInWorker } = await import(${JSON.stringify(path.join(dist, 'compose-policy/checkWorkerPool.js'))});\n` +
        `const task = { kind: 'read', repoDir: ${JSON.stringify(repo)}, fileName: 'compose.yaml', env: {} };\n` +
        'console.log(JSON.stringify(await runCheckInWorker(task)));\n',
    );
    const checked = execFileSync(process.execPath, ['--conditions=slipway-compiled', script], {
      cwd: REPOSITORY_ROOT,
      encoding: 'utf8',
    });
    expect(JSON.parse(checked)).toMatchObject({
      kind: 'read',
      violations: [],
      project: { services: { web: { image: 'busybox:1.36' } } },
    });

    const port = await freePort();
    // Started from another directory: the script finds the repository root itself.
    const child = spawn('sh', [path.join(REPOSITORY_ROOT, 'scripts/start.sh')], {
      cwd: tmpdir(),
      env: {
        PATH: process.env.PATH,
        SLIPWAY_SKIP_BUILD: '1',
        DATA_DIR: dataDir,
        PORT: String(port),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    };
    const base = `http://127.0.0.1:${port}`;
    let health: Response | undefined;
    while (!health?.ok) {
      if (child.exitCode !== null) throw new Error(`the compiled server exited:\n${output}`);
      health = await fetch(`${base}/api/health`).catch(() => undefined);
      if (!health?.ok) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // The shell replaced itself: the process we started is Node, running compiled JavaScript without tsx.
    const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
    expect(path.basename(argv[0] ?? '')).toBe('node');
    expect(argv).toContain('apps/server/dist/main.js');
    expect(argv.join(' ')).not.toContain('tsx');
    // An answer shaped by the contract, and the embedded database migrated in the data directory.
    const config = await (await fetch(`${base}/api/public-config`)).json();
    expect(config).toEqual({ payments: 'free_beta', demo_video_url: null });
    expect(existsSync(path.join(dataDir, 'pglite'))).toBe(true);
  }, 180_000);
});
