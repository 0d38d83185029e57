/**
 * `npm run bench`: runs every benchmark in bench/, one after the other (they share the machine's cores), shows
 * each one's own output, and ends with one table of their RESULT lines: measure, figure, goal, peer figure.
 * A benchmark is a bench/*.ts file that reports through `printResult` (lib/result.ts); files that do not
 * (helpers such as log-delivery-server.ts) are not run. `npm run bench -- footprint repository-list` runs
 * the ones named.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseResults, type ResultLine } from './lib/result.js';

const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));
const REPO_ROOT = path.dirname(BENCH_DIR.replace(/\/$/, ''));

const named = process.argv.slice(2).map((name) => name.replace(/\.ts$/, ''));
const benches = readdirSync(BENCH_DIR)
  .filter((file) => file.endsWith('.ts') && file !== 'run.ts')
  .filter((file) => /printResult\(|RESULT\\t/.test(readFileSync(path.join(BENCH_DIR, file), 'utf8')))
  .filter((file) => named.length === 0 || named.includes(file.replace(/\.ts$/, '')))
  .sort();

function runBench(file: string): Promise<{ code: number | null; output: string; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(BENCH_DIR, file)], {
      cwd: REPO_ROOT,
      env: process.env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    });
    child.on('close', (code) => resolve({ code, output, seconds: (performance.now() - started) / 1000 }));
  });
}

const rows: (ResultLine & { bench: string })[] = [];
for (const file of benches) {
  const bench = file.replace(/\.ts$/, '');
  console.log(`\n=== ${bench} ===`);
  const { code, output, seconds } = await runBench(file);
  const results = parseResults(output);
  for (const result of results) rows.push({ bench, ...result });
  if (code !== 0) {
    rows.push({ bench, measure: `(stopped: exit code ${code})`, figure: '-', goal: '-', peer: '-' });
  }
  console.log(`=== ${bench}: ${results.length} result(s) in ${seconds.toFixed(0)} s ===`);
}

const header = { bench: 'bench', measure: 'measure', figure: 'figure', goal: 'goal', peer: 'peer' };
const columns = ['bench', 'measure', 'figure', 'goal', 'peer'] as const;
const widths = columns.map((column) => Math.max(...[header, ...rows].map((row) => row[column].length)));
const line = (row: Record<(typeof columns)[number], string>) =>
  `| ${columns.map((column, i) => row[column].padEnd(widths[i]!)).join(' | ')} |`;
console.log(`\n${line(header)}`);
console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
for (const row of rows) console.log(line(row));
process.exitCode = rows.some((row) => row.measure.startsWith('(stopped')) ? 1 : 0;
