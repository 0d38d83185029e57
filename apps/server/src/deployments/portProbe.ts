import http from 'node:http';
import type { Duplex } from 'node:stream';

export type ProbeResult = 'http' | 'tcp' | 'closed';

/** How long a server that waits for its client (PostgreSQL, Redis) must keep a silent connection open. */
const SILENT_OPEN_MS = 500;

/**
 * Speaks HTTP to the port: any HTTP response means an HTTP server; bytes that are not HTTP, or a connection
 * kept open without an answer, mean a server of another protocol. A refused, reset or closed connection
 * answers nothing — unless {@link silentConnect} then shows a server that merely refused the HTTP request.
 */
function httpProbe(socket: Duplex, timeoutMs: number): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const request = http.request({
      createConnection: () => socket as never,
      path: '/',
      method: 'GET',
      headers: { host: 'localhost', 'user-agent': 'slipway-health' },
      timeout: timeoutMs,
    });
    const done = (result: ProbeResult) => {
      request.destroy();
      socket.destroy();
      resolve(result);
    };
    request.on('response', (response) => {
      response.resume();
      done('http');
    });
    request.on('timeout', () => done(socket.destroyed ? 'closed' : 'tcp'));
    request.on('error', (error: NodeJS.ErrnoException) =>
      done(error.code?.startsWith('HPE_') ? 'tcp' : 'closed'),
    );
    request.end();
  });
}

/**
 * Connects and says nothing. Docker's port proxy accepts a connection even when nothing listens inside, then
 * closes it at once; a real server keeps it open (or greets first, as MySQL does).
 */
function silentConnect(socket: Duplex): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const done = (result: ProbeResult) => {
      clearTimeout(timer);
      socket.removeAllListeners();
      socket.on('error', () => {});
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done('tcp'), SILENT_OPEN_MS);
    socket.once('data', () => done('tcp'));
    socket.once('end', () => done('closed'));
    socket.once('close', () => done('closed'));
    socket.once('error', () => done('closed'));
  });
}

/** Whether something answers on a published port, and whether it speaks HTTP. */
export async function probePort(connect: () => Promise<Duplex>, timeoutMs = 3000): Promise<ProbeResult> {
  const open = async () => {
    try {
      return await connect();
    } catch {
      return undefined;
    }
  };
  const first = await open();
  if (!first) return 'closed';
  const spoken = await httpProbe(first, timeoutMs);
  if (spoken !== 'closed') return spoken;
  const second = await open();
  return second ? silentConnect(second) : 'closed';
}
