// Compiles the server and the contract it imports from TypeScript to JavaScript, file by file, for `npm start`.
//
// esbuild transpiles each file on its own (no bundle, no type check: `npm run check` type-checks), in well
// under a second, so a start never waits on tsc. Each output keeps its source's place (src/x/y.ts →
// dist/x/y.js): the paths the server finds beside itself (the repository root, the web app's dist, the
// migrations, the compose check worker) resolve the same from sources and from dist. The contract is
// compiled to packages/contract/dist and chosen by Node's `--conditions=slipway-compiled` (see its
// package.json); everything else (Vite, vitest, tsx, tsc) keeps reading its TypeScript sources.
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A package's src files outside the test harness, relative to src. */
function shippedFiles(src) {
  return readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(src, path.join(entry.parentPath ?? entry.path, entry.name)))
    .filter((file) => !file.split(path.sep).includes('test'));
}

/** The .ts files of a package's src, without tests and the test harness. */
function sources(src) {
  return shippedFiles(src)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
    .map((file) => path.join(src, file));
}

/** The files of the server's src the compiled server reads at run time: all but TypeScript and the test harness. */
const serverAssets = (src) => shippedFiles(src).filter((file) => !file.endsWith('.ts'));

async function compile(pkg) {
  const src = path.join(root, pkg, 'src');
  const outdir = path.join(root, pkg, 'dist');
  // Only JavaScript is replaced: tsc -b keeps its declarations and build info in the same folder.
  for (const file of readdirSync(outdir, { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.js'),
  )) {
    rmSync(path.join(outdir, file));
  }
  await build({
    entryPoints: sources(src),
    outdir,
    outbase: src,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    bundle: false,
    sourcemap: false,
    logLevel: 'warning',
  });
}

const started = Date.now();
for (const pkg of ['packages/contract', 'apps/server']) {
  mkdirSync(path.join(root, pkg, 'dist'), { recursive: true });
  await compile(pkg);
}
// What the server reads from beside its code (the committed migrations, applied at start-up; the vendored
// Compose Specification schema, read by the compose check worker): every file of src that is not TypeScript,
// outside the test harness, goes to the same place under dist.
const serverSrc = path.join(root, 'apps/server/src');
for (const file of serverAssets(serverSrc)) {
  const target = path.join(root, 'apps/server/dist', file);
  rmSync(target, { force: true });
  mkdirSync(path.dirname(target), { recursive: true });
  cpSync(path.join(serverSrc, file), target);
}
console.log(`server compiled to apps/server/dist in ${Date.now() - started} ms`);
