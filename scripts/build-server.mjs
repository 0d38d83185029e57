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

/** The .ts files of a package's src, without tests and the test harness. */
function sources(src) {
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
    .filter((file) => !file.split(path.sep).includes('test'))
    .map((file) => path.join(src, file));
}

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
// The committed migrations are applied at start-up from beside the compiled database client.
const migrations = 'apps/server/src/infra/db/migrations';
const compiledMigrations = 'apps/server/dist/infra/db/migrations';
rmSync(path.join(root, compiledMigrations), { recursive: true, force: true });
cpSync(path.join(root, migrations), path.join(root, compiledMigrations), { recursive: true });
console.log(`server compiled to apps/server/dist in ${Date.now() - started} ms`);
