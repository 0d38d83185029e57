import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The start options Slipway changes in PGlite's engine. PGlite 0.3 starts PostgreSQL with
 * `shared_buffers=128MB` and `wal_buffers=4MB` written into its WebAssembly build (neither postgresql.conf
 * nor ALTER SYSTEM changes them), and those pools are most of the embedded server's memory: the engine's
 * memory is 174 MB after start with the built-in ones, 35 MB with these. Slipway's own database is small and
 * PGlite reads its files through the operating system's cache, so a 16 MB pool is plenty; 1 MB of WAL
 * buffers holds any transaction Slipway writes (smaller ones stop the engine at start).
 */
export const PGLITE_START_OPTIONS = [
  { name: 'shared_buffers', builtIn: '128MB', value: '16MB' },
  { name: 'wal_buffers', builtIn: '4MB', value: '1MB' },
] as const;

export interface StartOption {
  name: string;
  builtIn: string;
  value: string;
}

/**
 * The engine's bytes with other start options: each built-in setting is a NUL-terminated string among
 * PostgreSQL's start options, replaced in place by one no longer (the rest padded with NULs). Undefined when
 * the build does not hold exactly one of each (another PGlite version): it then starts as it comes.
 */
export function withStartOptions(
  engine: Buffer,
  options: readonly StartOption[],
): Uint8Array<ArrayBuffer> | undefined {
  const patched = new Uint8Array(engine.length);
  patched.set(engine);
  for (const { name, builtIn, value } of options) {
    const existing = Buffer.from(`${name}=${builtIn}\0`);
    const setting = Buffer.from(`${name}=${value}\0`);
    const at = engine.indexOf(existing);
    if (at === -1 || engine.indexOf(existing, at + 1) !== -1 || setting.length > existing.length)
      return undefined;
    patched.fill(0, at, at + existing.length);
    patched.set(setting, at);
  }
  return patched;
}

let compiled: Promise<WebAssembly.Module | undefined> | undefined;

/**
 * PGlite's engine compiled once per process with the smaller pools, handed to PGlite through its documented
 * `wasmModule` option (every database a process opens shares the compiled code).
 */
export function pgliteEngine(): Promise<WebAssembly.Module | undefined> {
  compiled ??= (async () => {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const engine = await readFile(path.join(path.dirname(entry), 'pglite.wasm'));
    const patched = withStartOptions(engine, PGLITE_START_OPTIONS);
    return patched ? WebAssembly.compile(patched) : undefined;
  })();
  return compiled;
}
