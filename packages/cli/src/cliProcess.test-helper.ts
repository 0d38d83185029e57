import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/slipway.js', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of the test run without the CLI's own variables, and `extra` on top. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = { ...(process.env as Record<string, string>) };
  for (const name of ['SLIPWAY_URL', 'SLIPWAY_TOKEN', 'SLIPWAY_TIMEOUT', 'SLIPWAY_DEBUG']) delete env[name];
  return { ...env, ...extra };
}

/** Starts `slipway ARGS` as a CI job would: no terminal on stdin. */
export function startCli(args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [BIN, ...args], { env, stdio: 'pipe' });
}

/** Runs `slipway ARGS` to its end. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  const child = startCli(args, env);
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A JavaScript stack frame, as Node prints one: `    at readStoredLogin (file:…)`. */
const STACK_FRAME = /^\s+at /m;

/**
 * What every failing command must look like: the exit status, a sentence on stderr and no stack trace; with
 * --json, exactly one JSON document on stdout holding the same sentence and the exit status.
 */
export function expectFailure(run: CliRun, exitCode: number, sentence: string | RegExp, what = ''): void {
  expect(run.code, `${what}: ${run.stderr}`).toBe(exitCode);
  expect(run.stderr, what).not.toMatch(STACK_FRAME);
  expect(run.stderr, what).not.toMatch(/Error: |TypeError|SyntaxError/);
  if (typeof sentence === 'string') expect(run.stderr, what).toContain(sentence);
  else expect(run.stderr, what).toMatch(sentence);
}

/** The JSON error document a failing --json command printed on stdout. */
export function errorDocumentOf(run: CliRun): {
  error: string;
  exitCode: number;
  code?: string;
  status?: number;
} {
  const document = JSON.parse(run.stdout) as { error: string; exitCode: number };
  expect(document.exitCode).toBe(run.code);
  expect(run.stderr).toContain(document.error);
  return document;
}
