import net from 'node:net';

const HTTP_TIMEOUT_MS = 5000;
const TCP_TIMEOUT_MS = 3000;

/**
 * Whether a service URL answers: any HTTP status counts (a 500 is an app bug, not an outage); when HTTP
 * fails (TLS with a private CA, a non-HTTP service) a TCP connection to the port is enough.
 */
export async function probeServiceUrl(url: string): Promise<{ ok: true } | { ok: false; reason: string }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'the address is not a valid URL' };
  }
  try {
    const response = await fetch(parsed, {
      redirect: 'manual',
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return { ok: true };
  } catch (error) {
    const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (await tcpConnects(host, port)) return { ok: true };
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { ok: false, reason: cause ?? (error as Error).name ?? 'no answer' };
  }
}

function tcpConnects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(TCP_TIMEOUT_MS, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
