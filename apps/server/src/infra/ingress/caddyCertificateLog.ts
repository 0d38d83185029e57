import net, { type AddressInfo } from 'node:net';
import { type CaddyAdmin, setConfig } from './caddyAdmin.js';
import { certificateEventReader } from './certificateLogEvents.js';
import type { CertificateEvent } from './ingress.js';

const LOG = '/config/logging/logs/slipway-certificates';
/** Pauses before putting the log back into a Caddy that dropped it (it restarted), growing while it is down. */
const REINSTALL_DELAYS_MS = [500, 1000, 2000, 5000, 10_000, 30_000];

export interface CertificateLog {
  /** Adds a listener; the first one opens the listener Caddy writes to and points Caddy's log at it. */
  subscribe(listener: (event: CertificateEvent) => void): () => void;
  /** When listening: puts the log back into a Caddy that has none (it restarted empty). Never throws. */
  restore(): Promise<void>;
  /** Takes the log out of Caddy (when it is still ours) and stops listening. */
  close(): Promise<void>;
}

/**
 * What Caddy says about certificates — obtained, or the CA's refusal in its own words — is only in Caddy's
 * log. Slipway listens on a loopback TCP port and has Caddy send the lines of its certificate loggers there
 * (a `net` log writer, JSON lines), then turns them into events.
 *
 * One listener per process; Caddy writes to the latest one installed. Caddy 2.6 dials the writer when it loads
 * the config and fails the load if nothing listens, so the log is taken out again on `close()`.
 */
export function createCertificateLog(
  admin: CaddyAdmin,
  onError: (error: unknown, what: string) => void,
): CertificateLog {
  const listeners = new Set<(event: CertificateEvent) => void>();
  const sockets = new Set<net.Socket>();
  const read = certificateEventReader();
  let server: net.Server | undefined;
  let address: string | undefined;
  let starting: Promise<void> | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  /** Until the first install succeeds, a log of an earlier listener (this process before a restart) is replaced. */
  let replaceOnRetry = true;

  /** Points Caddy's log here: always (`replace`), or only when Caddy has none (another process may own it). */
  async function install(replace: boolean) {
    if (!address || closed) return;
    const current = (await admin.read(LOG)) as { writer?: { address?: string } } | null;
    if (current?.writer?.address === address || (current && !replace)) return;
    await setConfig(admin, LOG, {
      writer: { output: 'net', address, dial_timeout: '2s' },
      encoder: { format: 'json' },
      level: 'INFO',
      // Caddy 2.6's ACME client logs as `http.acme_client`; later versions under `tls.issuance.acme`.
      include: ['tls.obtain', 'tls.renew', 'http.acme_client', 'tls.issuance.acme'],
    });
  }

  function reinstallLater() {
    if (closed || retry) return;
    const delay = REINSTALL_DELAYS_MS[Math.min(failures, REINSTALL_DELAYS_MS.length - 1)];
    retry = setTimeout(() => {
      retry = undefined;
      install(replaceOnRetry).then(
        () => {
          failures = 0;
          replaceOnRetry = false;
        },
        (error: unknown) => {
          // A Caddy that is restarting refuses for a moment: only one that stays away is worth a word, once.
          if (++failures === 3) onError(error, "putting Caddy's certificate log back failed (retrying)");
          reinstallLater();
        },
      );
    }, delay);
    retry.unref();
  }

  function receive(socket: net.Socket) {
    sockets.add(socket);
    let pending = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const event = read(line);
        if (!event) continue;
        for (const listener of listeners) {
          try {
            listener(event);
          } catch (error) {
            onError(error, 'a certificate event listener failed');
          }
        }
      }
    });
    // A reset is how a stopping Caddy hangs up; 'close' follows and says what to do.
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      reinstallLater();
    });
  }

  function start() {
    starting ??= (async () => {
      const listening = net.createServer(receive);
      await new Promise<void>((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(0, '127.0.0.1', resolve);
      });
      server = listening;
      address = `127.0.0.1:${(listening.address() as AddressInfo).port}`;
      await install(true);
      replaceOnRetry = false;
    })().catch((error: unknown) => {
      onError(error, "installing Caddy's certificate log failed (retrying)");
      failures = 3;
      reinstallLater();
    });
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      start();
      return () => listeners.delete(listener);
    },

    async restore() {
      await install(false).catch((error: unknown) =>
        onError(error, "putting Caddy's certificate log back failed"),
      );
    },

    async close() {
      closed = true;
      clearTimeout(retry);
      await starting;
      if (address) {
        const current = (await admin.read(LOG)) as { writer?: { address?: string } } | null;
        if (current?.writer?.address === address) {
          await admin
            .call('DELETE', LOG)
            .catch((error: unknown) => onError(error, "removing Caddy's certificate log failed"));
        }
      }
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    },
  };
}
