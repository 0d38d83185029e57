import tls, { type DetailedPeerCertificate } from 'node:tls';
import type { ServedCertificate } from './ingress.js';

/**
 * A TLS handshake with `address:port` naming `serverName` (SNI), reading the certificate it is given without
 * judging it. Rejects with the TLS error when the server has no certificate for the name (Caddy answers with
 * an alert), or after `timeoutMs` (Caddy holds a handshake while it orders a certificate on demand).
 */
export function handshake(
  target: { host: string; port: number },
  serverName: string,
  timeoutMs: number,
): Promise<DetailedPeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: target.host,
      port: target.port,
      servername: serverName,
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    });
    const fail = (error: Error) => {
      socket.destroy();
      reject(new Error(`TLS handshake for ${serverName} failed: ${error.message}`));
    };
    socket.setTimeout(timeoutMs, () => fail(new Error(`no answer within ${timeoutMs / 1000} s`)));
    socket.once('error', fail);
    socket.once('secureConnect', () => {
      const certificate = socket.getPeerCertificate(true);
      socket.end();
      if (!certificate?.raw) reject(new Error(`TLS handshake for ${serverName} failed: no certificate`));
      else resolve(certificate);
    });
  });
}

/** The issuer (its common name, else its organisation), expiry and DNS names of a peer certificate. */
export function describeCertificate(certificate: DetailedPeerCertificate): ServedCertificate {
  return {
    issuer: first(certificate.issuer.CN) || first(certificate.issuer.O) || '',
    notAfter: new Date(certificate.valid_to),
    names: (certificate.subjectaltname ?? '')
      .split(', ')
      .filter((name) => name.startsWith('DNS:'))
      .map((name) => name.slice('DNS:'.length)),
  };
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Where Caddy's HTTPS listener is reached: loopback, unless its admin API is on another machine. */
export function httpsAddressOf(adminUrl: string, httpsPort: number): { host: string; port: number } {
  const host = new URL(adminUrl).hostname.replace(/^\[|\]$/g, '');
  const local = host === 'localhost' || host === '::1' || host.startsWith('127.');
  return { host: local ? '127.0.0.1' : host, port: httpsPort };
}
