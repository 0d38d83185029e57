import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

const HTTP_TIMEOUT_MS = 5000;
const TCP_TIMEOUT_MS = 3000;

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

/** A body still coming this long after the answer (a stream, a huge page) is cut: its connection is not kept. */
const BODY_WAIT_MS = 1000;

/**
 * Probes keep their connection from one pass to the next (one idle socket per host): a new connection, with
 * its TLS handshake, per URL per pass was most of what the safety poll cost at rest.
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

/** Any HTTP answer, whatever its status; HTTPS with Caddy's internal CA counts as answering too. */
function httpAnswers(url: URL): Promise<{ ok: true } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    const secure = url.protocol === 'https:';
    const request = (secure ? https : http).request(url, {
      method: 'GET',
      lookup: loopbackAwareLookup,
      timeout: HTTP_TIMEOUT_MS,
      agent: secure ? agents.https : agents.http,
    });
    request.once('response', (response) => {
      resolve({ ok: true });
      // Read to its end, the connection goes back to the agent for the next probe.
      const cut = setTimeout(() => request.destroy(), BODY_WAIT_MS);
      response.once('close', () => clearTimeout(cut));
      response.resume();
    });
    request.once('timeout', () =>
      request.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
    );
    request.once('error', (error: NodeJS.ErrnoException) =>
      resolve({ ok: false, reason: error.code ?? error.message }),
    );
    request.end();
  });
}

/**
 * Whether a service URL answers: any HTTP status counts (a 500 is an app bug, not an outage); when HTTP
 * fails (a non-HTTP service) a TCP connection to the port is enough.
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
  const answer = await httpAnswers(parsed);
  if (answer.ok) return answer;
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (await tcpConnects(host, port)) return { ok: true };
  return answer;
}

function tcpConnects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, lookup: loopbackAwareLookup });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(TCP_TIMEOUT_MS, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
