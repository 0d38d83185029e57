import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { refusalSentences } from '../test/refusalSentences.js';
import { type CheckResult, runCheck } from './composeCheck.js';

const WS = '11111111-2222-3333-4444-555555555555';

/**
 * Issue 39: a refusal named a path of the Slipway host ("build.context: /…/data/builds/checkouts, which points
 * outside the repository"), and it reached the pull request's comment. Every path-bearing rule, on a checkout laid
 * out as the server lays it (DATA_DIR/builds/checkouts/{workspace}), through both checks as a deployment runs them:
 * each sentence shows the path relative to the repository, and none holds the data directory.
 */
describe('refusal sentences name paths relative to the repository', () => {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'slipway-refusal-paths-')));
  const dataDir = path.join(base, 'data');
  const checkouts = path.join(dataDir, 'builds', 'checkouts');
  mkdirSync(checkouts, { recursive: true });
  writeFileSync(path.join(dataDir, 'vault.key'), 'host secret');
  writeFileSync(path.join(base, 'outside.env'), 'A=1');
  const refusals = refusalSentences();
  afterAll(() => {
    refusals.expectNoHostPath(base);
    rmSync(base, { recursive: true, force: true });
  });

  /** A checkout of `files` (a string: its text; `{ link }`: a symlink) and what both checks refuse in it. */
  function refusedIn(files: Record<string, string | { link: string } | { dir: true }>): string[] {
    const repo = path.join(checkouts, randomUUID());
    mkdirSync(repo);
    for (const [name, content] of Object.entries(files)) {
      const file = path.join(repo, name);
      mkdirSync(path.dirname(file), { recursive: true });
      if (typeof content === 'string') writeFileSync(file, content);
      else if ('link' in content) symlinkSync(content.link, file);
      else mkdirSync(file);
    }
    const sentences = (result: CheckResult) =>
      result.kind === 'refused' ? [result.message] : result.violations.map((v) => v.message);
    const read = refusals.ofResult(
      runCheck({ kind: 'read', repoDir: repo, fileName: 'compose.yaml', env: {} }),
    );
    if (read.kind !== 'read' || read.violations.length > 0) return sentences(read);
    const checked = refusals.ofResult(
      runCheck({
        kind: 'normalized',
        repoDir: repo,
        project: read.project,
        workspaceId: WS,
        projectName: 'p',
      }),
    );
    return sentences(checked);
  }
  const service = (lines: string) => `services:\n  web:\n    image: busybox:1.36\n${lines}`;
  const built = (lines: string) => `services:\n  web:\n    build:\n${lines}`;

  it('shows a build context or Dockerfile that climbs out as the repository wrote it', () => {
    expect(refusedIn({ 'compose.yaml': built('      context: ..\n') })).toEqual([
      "Service 'web' uses build.context: .., which points outside the repository",
    ]);
    expect(refusedIn({ 'compose.yaml': built('      context: ../../..\n') })).toEqual([
      "Service 'web' uses build.context: ../../.., which points outside the repository",
    ]);
    expect(
      refusedIn({ 'compose.yaml': built('      context: web\n'), 'web/Dockerfile': { link: base } }),
    ).toEqual(['Dockerfile points outside the repository']);
    // A link's target is the repository's own text, shown as the link holds it.
    expect(
      refusedIn({
        'compose.yaml': built('      context: web\n'),
        'web/Dockerfile': 'FROM busybox:1.36\n',
        'web/up': { link: '../../..' },
      }),
    ).toEqual([
      "Service 'web' uses build.context: ./web, which holds a link pointing outside the repository (web/up -> ../../..)",
    ]);
  });

  it('shows secrets, configs and bind mounts relative to the repository, missing or outside', () => {
    expect(
      refusedIn({
        'compose.yaml': `${service('    secrets: [x]\n')}secrets:\n  x:\n    file: ./static/index.html\n`,
      }),
    ).toEqual([
      'The compose file uses secrets.x.file: ./static/index.html, which does not exist in the repository',
    ]);
    expect(
      refusedIn({
        'compose.yaml': `${service('    configs: [x]\n')}configs:\n  x:\n    file: ../../../vault.key\n`,
      }),
    ).toEqual([
      'The compose file uses configs.x.file: ../../../vault.key, which points outside the repository',
    ]);
    expect(refusedIn({ 'compose.yaml': service('    volumes: ["../:/x"]\n') })).toEqual([
      "Service 'web' uses volumes: .., which points outside the repository",
    ]);
    expect(
      refusedIn({ 'compose.yaml': service('    volumes: ["./conf:/x"]\n'), conf: { link: dataDir } }),
    ).toEqual(["Service 'web' uses volumes: ./conf, which points outside the repository"]);
    // A host path the compose file writes itself is its own text: shown as written.
    expect(refusedIn({ 'compose.yaml': service('    volumes: ["/etc/passwd:/x"]\n') })).toEqual([
      "Service 'web' uses volumes: /etc/passwd, which points outside the repository",
    ]);
  });

  it('shows env files, extends, includes and the compose file itself as the repository names them', () => {
    expect(refusedIn({ 'compose.yaml': service('    env_file: ../../../../outside.env\n') })).toEqual([
      "Service 'web' uses env_file: ../../../../outside.env, which points outside the repository",
    ]);
    expect(
      refusedIn({
        'compose.yaml': 'services:\n  web:\n    extends:\n      file: ../base.yml\n      service: b\n',
      }),
    ).toEqual(["Service 'web' uses extends.file: ../base.yml, which points outside the repository"]);
    expect(refusedIn({ 'compose.yaml': `include: [../other.yml]\n${service('')}` })).toEqual([
      'The compose file uses include: ../other.yml, which points outside the repository',
    ]);
    // Files the reader opens by their real path: refused with the path shown from the repository.
    expect(
      refusedIn({ 'compose.yaml': `include: [inc.yml]\n${service('')}`, 'inc.yml': { dir: true } }),
    ).toEqual(['./inc.yml is not a regular file']);
    expect(
      refusedIn({
        'compose.yaml': `include: [big.yml]\n${service('')}`,
        'big.yml': `# ${'x'.repeat(1024 * 1024 + 1)}\n`,
      }),
    ).toEqual([expect.stringMatching(/^\.\/big\.yml is too large/)]);
    expect(refusedIn({ 'compose.yaml': { link: path.join(base, 'outside.env') } })).toEqual([
      'compose.yaml points outside the repository',
    ]);
  });
});
