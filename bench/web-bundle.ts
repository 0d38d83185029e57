/**
 * Web bundle: the JavaScript a visitor downloads before the landing page shows, and what each screen adds.
 * Builds apps/web (`--no-build` reads the dist/ of the last `npm run build`), then follows the Vite manifest:
 * the landing needs index.html's entry script, its modulepreload links and static imports, plus the landing
 * page's own chunk (the router fetches the opened page's chunk at start-up); every other lazy chunk (a
 * screen, or a library one screen shows on demand) counts only what it adds to that entry.
 * Sizes are gzip at zlib's default level (what a server compressing on the fly sends).
 * Run: `npx tsx bench/web-bundle.ts [--no-build]`. Goal: landing < 100 kB gzip.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const DIST = path.join(ROOT, 'apps/web/dist');
const LANDING = 'src/features/landing/LandingPage.tsx';
const DASHBOARD = 'src/features/dashboard/DashboardPage.tsx';
/**
 * What every signed-in screen loads beside its own chunk, each a dynamic import of its own: the signed-in
 * route table (app/router.tsx), the page providers with the query cache (app/dataPage.ts) and the
 * signed-in header (app/header/lazyUserHeader.ts). The dashboard's figure counts them.
 */
const SIGNED_IN_COMPANIONS = [
  'src/app/signedInRoutes.tsx',
  'src/app/PageProviders.tsx',
  'src/app/header/UserHeader.tsx',
];
/** The HTTP client's chunk (the typed route client over axios): the landing imports it after its first paint, for its public config. */
const CLIENT_CHUNK = 'routeClient';
const GOAL_KB = 100;

if (!process.argv.includes('--no-build')) {
  execFileSync('npm', ['run', 'build', '-w', '@slipway/web'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const manifest = JSON.parse(readFileSync(path.join(DIST, '.vite/manifest.json'), 'utf8')) as Manifest;
const gzipBytes = new Map<string, number>();
const rawBytes = new Map<string, number>();

function measure(file: string): { raw: number; gzip: number } {
  if (!gzipBytes.has(file)) {
    const content = readFileSync(path.join(DIST, file));
    rawBytes.set(file, content.length);
    gzipBytes.set(file, gzipSync(content).length);
  }
  return { raw: rawBytes.get(file) ?? 0, gzip: gzipBytes.get(file) ?? 0 };
}

function chunkOf(key: string): ManifestChunk {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the Vite manifest (was the screen renamed?)`);
  return chunk;
}

/** The files a chunk needs before it runs: itself and its static imports, transitively. */
function staticClosure(key: string, into = new Set<string>()): Set<string> {
  const chunk = chunkOf(key);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(imported, into);
  return into;
}

/** index.html's entry script and modulepreload links, as the browser sees them. */
function htmlScripts(): string[] {
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
  return tags
    .filter((tag) => /type="module"/.test(tag) || /rel="modulepreload"/.test(tag))
    .map((tag) => /(?:src|href)="\/?([^"]+\.js)"/.exec(tag)?.[1])
    .filter((file): file is string => file !== undefined);
}

const total = (files: Iterable<string>) => {
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const size = measure(file);
    raw += size.raw;
    gzip += size.gzip;
  }
  return { raw, gzip };
};
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
if (!entryKey) throw new Error('The Vite manifest has no entry chunk');
const shell = staticClosure(entryKey);
for (const file of htmlScripts()) shell.add(file);
const landing = staticClosure(LANDING, new Set(shell));

const shellSize = total(shell);
const landingSize = total(landing);
console.log('Before the landing page shows:');
for (const file of [...landing].sort((a, b) => measure(b).gzip - measure(a).gzip)) {
  console.log(
    `  ${file.padEnd(44)} ${kB(measure(file).raw).padStart(10)}  gzip ${kB(measure(file).gzip).padStart(9)}`,
  );
}
console.log(`  shell (entry + its imports)                   gzip ${kB(shellSize.gzip)}`);
console.log(`  total ${kB(landingSize.raw)}, gzip ${kB(landingSize.gzip)} (goal < ${GOAL_KB} kB gzip)\n`);

console.log('What each lazy chunk adds to the shell (a screen, or a library one screen loads on demand):');
const extras = Object.entries(manifest)
  .filter(([, chunk]) => chunk.isDynamicEntry)
  .map(([key, chunk]) => {
    const added = [...staticClosure(key)].filter((file) => !shell.has(file));
    return { key, name: chunk.src ?? key, size: total(added) };
  })
  .sort((a, b) => b.size.gzip - a.size.gzip);
for (const { name, size } of extras) {
  console.log(`  ${name.padEnd(60)} ${kB(size.raw).padStart(10)}  gzip ${kB(size.gzip).padStart(9)}`);
}

const biggest = Object.values(manifest)
  .filter((chunk) => chunk.file.endsWith('.js'))
  .map((chunk) => ({ file: chunk.file, ...measure(chunk.file) }))
  .sort((a, b) => b.raw - a.raw)[0];
const dashboardFiles = new Set<string>();
for (const key of [DASHBOARD, ...SIGNED_IN_COMPANIONS]) {
  for (const file of staticClosure(key)) if (!shell.has(file)) dashboardFiles.add(file);
}
const dashboard = manifest[DASHBOARD] ? { size: total(dashboardFiles) } : undefined;
const client = extras.find((extra) => manifest[extra.key]?.name === CLIENT_CHUNK);

console.log('');
console.log(
  `RESULT\tweb: JS before the landing page shows (gzip)\t${kB(landingSize.gzip)}\t< ${GOAL_KB} kB\t-`,
);
if (client) {
  console.log(
    `RESULT\tweb: JS the landing loads after it shows (HTTP client for its public config, gzip)\t${kB(client.size.gzip)}\t-\t-`,
  );
}
if (dashboard) {
  console.log(
    `RESULT\tweb: JS the dashboard adds, with the signed-in route table, header and query cache (gzip, chart on demand)\t${kB(dashboard.size.gzip)}\t-\t-`,
  );
}
if (biggest) {
  console.log(
    `RESULT\tweb: biggest chunk (${biggest.file})\t${kB(biggest.raw)} (gzip ${kB(biggest.gzip)})\t-\t-`,
  );
}
