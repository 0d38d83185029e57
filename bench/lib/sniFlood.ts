/**
 * TLS handshakes with random names, from a process of its own (the handshakes' crypto must not share the event
 * loop of the server under measurement), and beside them the permission question asked about random names one
 * after another, timed from here as Caddy would see it: `tsx bench/lib/sniFlood.ts {port} {count} {concurrency}
 * {permission URL}` prints `{"served": n, "latencies": [ms, …], "refused": n}` — the handshakes that got a
 * certificate, each question's time, and how many questions were answered 404.
 */
import { randomBytes } from 'node:crypto';
import tls from 'node:tls';

const [port, count, concurrency] = process.argv.slice(2, 5).map(Number) as [number, number, number];
const permissionUrl = process.argv[5];

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
let flooding = true;
const latencies: number[] = [];
let refused = 0;
const timing = (async () => {
  while (permissionUrl && flooding) {
    const started = performance.now();
    const answer = await fetch(`${permissionUrl}?domain=${randomBytes(6).toString('hex')}.flood.test`);
    await answer.arrayBuffer();
    latencies.push(performance.now() - started);
    if (answer.status === 404) refused++;
  }
})();
await Promise.all(
  Array.from({ length: concurrency }, async (_, lane) => {
    for (let i = lane; i < count; i += concurrency) {
      if (await handshake(`${randomBytes(8).toString('hex')}.flood.test`)) served++;
    }
  }),
);
flooding = false;
await timing;
console.log(JSON.stringify({ served, latencies, refused }));
