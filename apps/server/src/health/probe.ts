import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * The one probe of a service: does something answer, and does it speak HTTP. A deployment asks it of each
 * published host port (through the engine's connection, {@link probePort}); the health monitor asks it of each
 * service URL, through the proxy ({@link probeServiceUrl}). Both speak HTTP first ({@link askHttp}) and fall
 * back to a plain TCP connection.
 */
export type ProbeResult = 'http' | 'tcp' | 'closed';

/** What one HTTP request told: an answer, a silence, bytes that are not HTTP, or a failure (with its code). */
type HttpAnswer =
  | { kind: 'http' }
  | { kind: 'silent' }
  | { kind: 'not-http' }
  | { kind: 'failed'; reason: string };

/** How long a server that waits for its client (PostgreSQL, Redis) must keep a silent connection open. */
const SILENT_OPEN_MS = 500;
const URL_HTTP_TIMEOUT_MS = 5000;
const URL_TCP_TIMEOUT_MS = 3000;
/** A body still coming this long after the answer (a stream, a huge page) is cut: its connection is not kept. */
const BODY_WAIT_MS = 1000;

/**
 * Sends the request and reads how it was answered: any HTTP response is an HTTP server; a parse error (bytes
 * that are not HTTP) a server of another protocol; a time-out a connection kept open without an answer.
 */
function askHttp(request: http.ClientRequest, onResponse: (response: http.IncomingMessage) => void) {
  return new Promise<HttpAnswer>((resolve) => {
    request.once('response', (response) => {
      resolve({ kind: 'http' });
      onResponse(response);
    });
    request.once('timeout', () => resolve({ kind: 'silent' }));
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve(
        error.code?.startsWith('HPE_')
          ? { kind: 'not-http' }
          : { kind: 'failed', reason: error.code ?? error.message },
      ),
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

/**
 * Whether something answers on a published port, and whether it speaks HTTP. A refused, reset or closed
 * connection answers nothing — unless {@link silentConnect} then shows a server that merely refused the HTTP
 * request.
 */
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
  const request = http.request({
    createConnection: () => first as never,
    path: '/',
    method: 'GET',
    headers: { host: 'localhost', 'user-agent': 'slipway-health' },
    timeout: timeoutMs,
  });
  const answer = await askHttp(request, (response) => response.resume());
  // A silence on a connection still open is a server of another protocol waiting for its client.
  const spoken: ProbeResult =
    answer.kind === 'http'
      ? 'http'
      : answer.kind === 'not-http' || (answer.kind === 'silent' && !first.destroyed)
        ? 'tcp'
        : 'closed';
  request.destroy();
  first.destroy();
  if (spoken !== 'closed') return spoken;
  const second = await open();
  return second ? silentConnect(second) : 'closed';
}

/**
 * Name resolution for probes: `localhost` and `*.localhost` are loopback (RFC 6761) — the names Caddy
 * serves in local mode — although Node's resolver (and glibc here) answers ENOTFOUND for the subdomains.
 * Every other name goes to the system resolver.
 */
export const loopbackAwareLookup: net.LookupFunction = (hostname, options, callback) => {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) {
    if (options.all) {
      (callback as (err: null, addresses: dns.LookupAddress[]) => void)(null, [
        { address: '127.0.0.1', family: 4 },
      ]);
    } else callback(null, '127.0.0.1', 4);
    return;
  }
  dns.lookup(hostname, options, callback);
};

/**
 * URL probes keep their connection from one pass to the next (one idle socket per host): a new connection, with
 * its TLS handshake, per URL per pass was most of what the health monitor's safety poll cost at rest.
 */
const agents = {
  http: new http.Agent({ keepAlive: true, maxFreeSockets: 1, scheduling: 'lifo' }),
  // Reachability, not trust: a private CA (Caddy local mode) must not read as an outage.
  https: new https.Agent({
    keepAlive: true,
    maxFreeSockets: 1,
    scheduling: 'lifo',
    rejectUnauthorized: false,
  }),
};

/**
 * Whether a service URL answers: any HTTP status counts (a 500 is an app bug, not an outage), HTTPS with
 * Caddy's internal CA too; when HTTP fails (a non-HTTP service) a TCP connection to the port is enough.
 */
export async function probeServiceUrl(url: string): Promise<{ ok: true } | { ok: false; reason: string }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'the address is not a valid URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, reason: 'the address is not an http(s) URL' };
  }
  const secure = parsed.protocol === 'https:';
  const request = (secure ? https : http).request(parsed, {
    method: 'GET',
    lookup: loopbackAwareLookup,
    timeout: URL_HTTP_TIMEOUT_MS,
    agent: secure ? agents.https : agents.http,
  });
  const answer = await askHttp(request, (response) => {
    // Read to its end, the connection goes back to the agent for the next probe.
    const cut = setTimeout(() => request.destroy(), BODY_WAIT_MS);
    response.once('close', () => clearTimeout(cut));
    response.resume();
  });
  if (answer.kind === 'http') return { ok: true };
  if (answer.kind === 'silent') request.destroy();
  const port = Number(parsed.port || (secure ? 443 : 80));
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (await tcpConnects(host, port)) return { ok: true };
  return {
    ok: false,
    reason: answer.kind === 'failed' ? answer.reason : answer.kind === 'silent' ? 'ETIMEDOUT' : 'HPE_INVALID',
  };
}

function tcpConnects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, lookup: loopbackAwareLookup });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(URL_TCP_TIMEOUT_MS, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
