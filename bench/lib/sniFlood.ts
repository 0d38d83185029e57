/**
 * TLS handshakes with random names, from a process of its own (the handshakes' crypto must not share the event
 * loop of the server under measurement): `tsx bench/lib/sniFlood.ts {port} {count} {concurrency}` prints
 * `{"served": n}`, the handshakes that got a certificate.
 */
import { randomBytes } from 'node:crypto';
import tls from 'node:tls';

const [port, count, concurrency] = process.argv.slice(2).map(Number) as [number, number, number];

function handshake(servername: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('error', () => resolve(false));
    socket.on('close', () => resolve(false));
  });
}

let served = 0;
await Promise.all(
  Array.from({ length: concurrency }, async (_, lane) => {
    for (let i = lane; i < count; i += concurrency) {
      if (await handshake(`${randomBytes(8).toString('hex')}.flood.test`)) served++;
    }
  }),
);
console.log(JSON.stringify({ served }));
