import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-fs';
import { afterEach, describe, expect, it } from 'vitest';
import { BuildContextError, packBuildContext } from './buildContext.js';
import { COMPOSE_LIMITS } from './composeLimits.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'slipway-context-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` (path → content) under `root`. */
function writeTree(root: string, files: Record<string, string>) {
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
}

/** Packs the context and unpacks the tar elsewhere: the files the engine would receive, sorted. */
async function received(context: string, dockerfile = 'Dockerfile') {
  const packed = packBuildContext(context, dockerfile);
  const out = tempDir();
  await pipeline(packed.stream, tar.extract(out));
  const files = readdirSync(out, { recursive: true, encoding: 'utf8' })
    .filter((entry) => !lstatSync(path.join(out, entry)).isDirectory())
    .sort();
  return { files, out, dockerfile: packed.dockerfile };
}

describe('packing a build context', () => {
  it('leaves out what .dockerignore excludes, brings back its exceptions, and always sends the Dockerfile', async () => {
    const context = tempDir();
    writeTree(context, {
      Dockerfile: 'FROM busybox:1.36\n',
      '.dockerignore':
        '# comments are not patterns\nDockerfile\nsecret.txt\n*.log\nnode_modules\n!node_modules/keep.txt\n',
      'app.js': 'ok',
      'secret.txt': 'no',
      'debug.log': 'no',
      'src/deep.log': 'kept: *.log matches the top level only',
      'node_modules/left/index.js': 'no',
      'node_modules/keep.txt': 'kept by the exception',
    });
    const { files, dockerfile } = await received(context);
    expect(dockerfile).toBe('Dockerfile');
    expect(files).toEqual(['.dockerignore', 'Dockerfile', 'app.js', 'node_modules/keep.txt', 'src/deep.log']);
  });

  it('does not walk an excluded directory when no exception could bring anything back', async () => {
    const context = tempDir();
    writeTree(context, {
      'docker/Dockerfile': 'FROM busybox:1.36\n',
      'docker/notes.txt': 'excluded with its directory',
      '.dockerignore': 'docker\nbuild/\n',
      'build/out.bin': 'no',
      'index.html': 'ok',
    });
    const { files, dockerfile } = await received(context, 'docker/Dockerfile');
    expect(dockerfile).toBe('docker/Dockerfile');
    expect(files).toEqual(['.dockerignore', 'docker/Dockerfile', 'index.html']);
  });

  it('keeps a link as a link, never the file it points at', async () => {
    const context = tempDir();
    writeTree(context, { Dockerfile: 'FROM busybox:1.36\n', 'real.txt': 'inside' });
    symlinkSync('real.txt', path.join(context, 'link.txt'));
    const { out } = await received(context);
    expect(lstatSync(path.join(out, 'link.txt')).isSymbolicLink()).toBe(true);
  });

  it('sends a Dockerfile from outside the context under a name of its own', async () => {
    const repo = tempDir();
    writeTree(repo, {
      '.slipway-materials/Dockerfile.web': 'FROM busybox:1.36\nCOPY . /site\n',
      'site/index.html': 'hello',
    });
    const { files, dockerfile, out } = await received(
      path.join(repo, 'site'),
      path.join(repo, '.slipway-materials/Dockerfile.web'),
    );
    expect(dockerfile).toBe('.dockerfile.slipway');
    expect(files).toEqual(['.dockerfile.slipway', 'index.html']);
    expect(readFileSync(path.join(out, dockerfile), 'utf8')).toBe('FROM busybox:1.36\nCOPY . /site\n');
  });

  it('refuses a .dockerignore over the limit without reading it', () => {
    const context = tempDir();
    writeTree(context, {
      Dockerfile: 'FROM busybox:1.36\n',
      '.dockerignore': 'x\n'.repeat(COMPOSE_LIMITS.dockerignoreBytes),
    });
    expect(() => packBuildContext(context, 'Dockerfile')).toThrow(BuildContextError);
    expect(() => packBuildContext(context, 'Dockerfile')).toThrow(
      'its .dockerignore is larger than the limit of 256 KiB',
    );
  });
});
