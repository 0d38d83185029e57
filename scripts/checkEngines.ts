/**
 * The README promises Node 20. Every installed package must accept the Node that runs this check
 * (CI runs on the README's Node), so `npm install` on a fresh machine prints no engine warning.
 * Runs as part of `npm run check`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';

const root = path.resolve(import.meta.dirname, '..');
const promised = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node as string;

function* packageDirs(modulesDir: string): Generator<string> {
  let entries: string[];
  try {
    entries = readdirSync(modulesDir);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.startsWith('.')) continue;
    const dir = path.join(modulesDir, entry);
    if (entry.startsWith('@')) {
      for (const scoped of readdirSync(dir)) yield* withNested(path.join(dir, scoped));
    } else {
      yield* withNested(dir);
    }
  }
}

function* withNested(dir: string): Generator<string> {
  yield dir;
  yield* packageDirs(path.join(dir, 'node_modules'));
}

const refused: string[] = [];
const modules = [
  root,
  ...['apps/server', 'apps/web', 'packages/contract', 'e2e', 'bench'].map((w) => path.join(root, w)),
];
for (const base of modules) {
  for (const dir of packageDirs(path.join(base, 'node_modules'))) {
    let manifest: { name?: string; version?: string; engines?: { node?: string } };
    try {
      manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    const range = manifest.engines?.node;
    if (range && semver.validRange(range) && !semver.satisfies(process.version, range)) {
      refused.push(`${manifest.name}@${manifest.version} needs Node ${range} (${path.relative(root, dir)})`);
    }
  }
}

if (!semver.satisfies(process.version, promised)) {
  console.error(`check-engines: Node ${process.version} is not the Node ${promised} the README promises`);
  process.exit(1);
}
if (refused.length > 0) {
  console.error(`check-engines: ${refused.length} installed packages refuse Node ${process.version}:`);
  for (const line of refused) console.error(`  ${line}`);
  console.error('Pin a version that supports it (package.json "overrides"), then `npm update <name>`.');
  process.exit(1);
}
console.log(`check-engines: every installed package accepts Node ${process.version}`);
