import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * PGlite's buffer pool, in MB. PGlite 0.3 starts PostgreSQL with `shared_buffers=128MB` written into its
 * WebAssembly build (neither postgresql.conf nor ALTER SYSTEM changes it), and that pool is most of the
 * embedded server's memory: the engine's memory is 174 MB after start with it, 35 MB with 16 MB. Slipway's
 * own database is small and PGlite reads its files through the operating system's cache, so 16 MB is plenty.
 */
export const PGLITE_SHARED_BUFFERS_MB = 16;

const BUILT_IN = Buffer.from('shared_buffers=128MB\0');

/**
 * The engine's bytes with the smaller buffer pool: the built-in setting is a NUL-terminated string among
 * PostgreSQL's start options, replaced in place by a shorter one (the rest padded with NULs). Undefined when
 * the build does not hold exactly one such string (another PGlite version): it then starts as it comes.
 */
export function withSharedBuffers(engine: Buffer, megabytes: number): Uint8Array<ArrayBuffer> | undefined {
  const at = engine.indexOf(BUILT_IN);
  if (at === -1 || engine.indexOf(BUILT_IN, at + 1) !== -1) return undefined;
  const setting = Buffer.from(`shared_buffers=${megabytes}MB\0`);
  if (setting.length > BUILT_IN.length) return undefined;
  const patched = new Uint8Array(engine.length);
  patched.set(engine);
  patched.fill(0, at, at + BUILT_IN.length);
  patched.set(setting, at);
  return patched;
}

let compiled: Promise<WebAssembly.Module | undefined> | undefined;

/**
 * PGlite's engine compiled once per process with the smaller buffer pool, handed to PGlite through its
 * documented `wasmModule` option (every database a process opens shares the compiled code).
 */
export function pgliteEngine(): Promise<WebAssembly.Module | undefined> {
  compiled ??= (async () => {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const engine = await readFile(path.join(path.dirname(entry), 'pglite.wasm'));
    const patched = withSharedBuffers(engine, PGLITE_SHARED_BUFFERS_MB);
    return patched ? WebAssembly.compile(patched) : undefined;
  })();
  return compiled;
}
