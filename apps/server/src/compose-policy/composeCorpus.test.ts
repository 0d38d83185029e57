import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { COMPOSE_FILE_NAMES } from '../infra/compose/composeProject.js';
import { stringifyCompose } from '../infra/compose/composeYaml.js';
import { runCheck } from './composeCheck.js';
import { writeMaterials } from './composeMaterials.js';

/**
 * The compose corpus (test/fixtures/compose-corpus): realistic compose files written for this project, each
 * with its verdict — `expected.yaml` (the project file Slipway writes, the checkout shown as <repo>) or
 * `refused.txt` (the exact message). Each runs through the path a deployment takes (detectProject.ts): read
 * and translate in the check, materials written, sandbox rules on the result; accepted ones must also be read by
 * the installed Compose CLI (`docker-compose config`). `UPDATE_CORPUS=1` rewrites the expectations.
 */
const CORPUS = path.resolve(import.meta.dirname, '../test/fixtures/compose-corpus');
const WS = '11111111-2222-3333-4444-555555555555';
const UPDATE = process.env.UPDATE_CORPUS === '1';
const work = mkdtempSync(path.join(tmpdir(), 'slipway-corpus-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const run = promisify(execFile);

type Verdict =
  | { kind: 'accepted'; text: string; file: string; repo: string }
  | { kind: 'refused'; message: string };

async function verdictOf(name: string): Promise<Verdict> {
  const repo = path.join(work, name);
  cpSync(path.join(CORPUS, name, 'repo'), repo, { recursive: true, verbatimSymlinks: true });
  const envFile = path.join(CORPUS, name, 'env.json');
  const env = existsSync(envFile)
    ? (JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>)
    : {};
  const fileName = COMPOSE_FILE_NAMES.find((candidate) => existsSync(path.join(repo, candidate)))!;
  const read = runCheck({ kind: 'read', repoDir: repo, fileName, env });
  if (read.kind === 'refused') return { kind: 'refused', message: read.message };
  if (read.kind !== 'read') throw new Error('unexpected result');
  if (read.violations.length > 0)
    return { kind: 'refused', message: read.violations.map((v) => v.message).join('\n') };
  await writeMaterials(repo, read.materials);
  const text = stringifyCompose(read.project);
  const checked = runCheck({
    kind: 'normalized',
    repoDir: repo,
    project: read.project,
    workspaceId: WS,
    projectName: `slipway-${WS}`,
  });
  if (checked.kind === 'refused') return { kind: 'refused', message: checked.message };
  if (checked.violations.length > 0) {
    return { kind: 'refused', message: checked.violations.map((v) => v.message).join('\n') };
  }
  const file = path.join(work, `${name}.compose.yml`);
  writeFileSync(file, text);
  return { kind: 'accepted', text: text.replaceAll(repo, '<repo>'), file, repo };
}

const cases = readdirSync(CORPUS).sort();
const tally = { accepted: 0, refused: 0 };

describe('the compose corpus', () => {
  it('holds at least 30 cases, each with one verdict', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    for (const name of cases) {
      const verdicts = ['expected.yaml', 'refused.txt'].filter((f) => existsSync(path.join(CORPUS, name, f)));
      expect(UPDATE || verdicts.length === 1, `${name} has one verdict`).toBe(true);
    }
  });

  it.each(cases)(
    '%s',
    async (name) => {
      const verdict = await verdictOf(name);
      const expectedFile = path.join(CORPUS, name, 'expected.yaml');
      const refusedFile = path.join(CORPUS, name, 'refused.txt');
      if (UPDATE) {
        rmSync(expectedFile, { force: true });
        rmSync(refusedFile, { force: true });
        if (verdict.kind === 'accepted') writeFileSync(expectedFile, verdict.text);
        else writeFileSync(refusedFile, `${verdict.message}\n`);
      }
      if (existsSync(refusedFile)) {
        expect(verdict).toEqual({ kind: 'refused', message: readFileSync(refusedFile, 'utf8').trimEnd() });
        tally.refused++;
        return;
      }
      expect(verdict.kind === 'accepted' ? verdict.text : verdict).toBe(readFileSync(expectedFile, 'utf8'));
      if (verdict.kind !== 'accepted') return;
      // The installed Compose CLI (v1 here) reads the written file without complaint.
      const emptyEnv = path.join(work, `${name}.env`);
      writeFileSync(emptyEnv, '');
      await run(
        'docker-compose',
        [
          '-f',
          verdict.file,
          '--project-directory',
          verdict.repo,
          '--env-file',
          emptyEnv,
          'config',
          '--quiet',
        ],
        { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work } },
      );
      tally.accepted++;
    },
    60_000,
  );

  afterAll(() =>
    console.log(`compose corpus: ${tally.accepted} accepted, ${tally.refused} refused as expected`),
  );
});
