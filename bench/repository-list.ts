/**
 * Repository list (issue 16): GET /api/github/repos on the compiled server in local mode, with 30 and then 300
 * git repositories under LOCAL_REPOS_DIR (each with a README, a few files and two branches). Prints the first
 * answer after a start (nothing known yet), the next ones (nothing changed), and one after a push to one
 * repository. Run: `npx tsx bench/repository-list.ts` (builds the server first; no Docker needed).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, printResult } from './lib/result.js';
import { signIn, startCompiledSlipway } from './lib/slipwayProcess.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const COUNTS = (process.env.COUNTS ?? '30,300').split(',').map(Number);

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=me', '-c', 'user.email=me@example.com', ...args], {
    cwd: dir,
    stdio: 'pipe',
  });

function makeRepository(root: string, index: number): string {
  const dir = path.join(root, 'operator', `app-${String(index).padStart(3, '0')}`);
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(path.join(dir, 'README.md'), `# App ${index}\n\nA bench repository.\n`);
  writeFileSync(path.join(dir, 'Dockerfile'), 'FROM busybox:1.36\nCMD ["sleep", "3600"]\n');
  writeFileSync(path.join(dir, 'src', 'index.ts'), `export const n = ${index};\n`);
  writeFileSync(path.join(dir, 'src', 'util.ts'), 'export {};\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'first');
  git(dir, 'branch', 'feature/x');
  return dir;
}

for (const count of COUNTS) {
  const work = mkdtempSync(path.join(tmpdir(), 'slipway-repolist-'));
  const reposDir = path.join(work, 'repos');
  const dirs = Array.from({ length: count }, (_, index) => makeRepository(reposDir, index));
  const slipway = await startCompiledSlipway(REPO_ROOT, {
    DATA_DIR: path.join(work, 'data'),
    LOCAL_REPOS_DIR: reposDir,
    LOG_LEVEL: 'warn',
  });
  try {
    const headers = await signIn(slipway.base);
    const list = async () => {
      const at = performance.now();
      const response = await fetch(`${slipway.base}/api/github/repos`, { headers });
      const repositories = (await response.json()) as unknown[];
      if (response.status !== 200 || repositories.length !== count) {
        throw new Error(`GET /api/github/repos: ${response.status}, ${repositories.length} of ${count}`);
      }
      return performance.now() - at;
    };
    const first = await list();
    const next: number[] = [];
    for (let i = 0; i < 5; i++) next.push(await list());
    writeFileSync(path.join(dirs[0]!, 'CHANGES.md'), 'changed\n');
    git(dirs[0]!, 'add', '-A');
    git(dirs[0]!, 'commit', '-qm', 'second');
    const afterPush = await list();
    console.log(
      `${count} local repositories: first answer ${first.toFixed(0)} ms, then median ${median(next).toFixed(0)} ms, after a push to one ${afterPush.toFixed(0)} ms`,
    );
    printResult(
      `repository list, ${count} local repositories (first answer)`,
      `${first.toFixed(0)} ms`,
      count === 30 ? '< 300 ms' : '-',
    );
    printResult(
      `repository list, ${count} local repositories (next answers)`,
      `${median(next).toFixed(0)} ms`,
      '< 300 ms',
    );
  } finally {
    await slipway.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
