import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

export interface DataDirLock {
  /** The pid other processes are told. */
  readonly pid: number;
  release(): Promise<void>;
}

/** How long a second process waits for the holder to say its pid (a busy holder may be slow to answer). */
const ASK_TIMEOUT_MS = 2000;

/**
 * The lock's address: a Linux abstract socket (no file, released by the kernel when its process dies,
 * even by SIGKILL) named after the data directory's real path; elsewhere a socket file in the temp dir.
 */
function lockAddress(realDir: string): { address: string; file: string | undefined } {
  const hash = createHash('sha256').update(realDir).digest('hex').slice(0, 32);
  if (process.platform === 'linux') return { address: `\0slipway-data-dir-${hash}`, file: undefined };
  const file = path.join(tmpdir(), `slipway-${hash}.sock`);
  return { address: file, file };
}

function listen(server: net.Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(address, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** Asks the holder for its pid; `undefined` when nobody answers (a socket file left by a dead process). */
function askHolder(address: string): Promise<{ pid: number | undefined } | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(address);
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ pid: undefined });
    }, ASK_TIMEOUT_MS);
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      text += chunk;
    });
    socket.on('end', () => {
      clearTimeout(timer);
      const pid = Number((JSON.parse(text || '{}') as { pid?: unknown }).pid);
      resolve({ pid: Number.isInteger(pid) ? pid : undefined });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? undefined : { pid: undefined });
    });
  });
}

/**
 * One process per data directory: the embedded database (PGlite) is corrupted by two writers. Taken at
 * start, before anything in the directory is opened or written; a second process gets a
 * DataDirLockedError naming the holder's pid and must exit without touching anything.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true });
  const realDir = realpathSync(dataDir);
  const { address, file } = lockAddress(realDir);
  const server = net.createServer((socket) => {
    socket.end(JSON.stringify({ pid: process.pid, dataDir: realDir }));
  });
  for (let attempt = 0; ; attempt++) {
    try {
      await listen(server, address);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      const holder = await askHolder(address);
      if (!holder && file && attempt === 0) {
        // A socket file nobody listens on: left by a process that died. Take it over once.
        unlinkSync(file);
        continue;
      }
      throw new DataDirLockedError(
        `Another Slipway process${holder?.pid ? ` (pid ${holder.pid})` : ''} is already using the data directory ${realDir}. ` +
          'Stop that process first, or give this one a different DATA_DIR.',
      );
    }
  }
  server.unref();
  return {
    pid: process.pid,
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
