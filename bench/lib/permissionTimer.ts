/**
 * Asks Slipway's permission question about random names, one after another, from a process of its own (neither
 * the server's event loop nor the flood's TLS handshakes share it), until its standard input closes; then prints
 * `{"latencies": [ms, …], "refused": n}`: each question's time, and how many were answered 404.
 * `tsx bench/lib/permissionTimer.ts {permission URL}`.
 */
import { randomBytes } from 'node:crypto';

const permissionUrl = process.argv[2];
let asking = true;
process.stdin.resume();
process.stdin.on('end', () => {
  asking = false;
});

const latencies: number[] = [];
let refused = 0;
while (asking) {
  const started = performance.now();
  const answer = await fetch(`${permissionUrl}?domain=${randomBytes(6).toString('hex')}.flood.test`);
  await answer.arrayBuffer();
  latencies.push(performance.now() - started);
  if (answer.status === 404) refused++;
}
console.log(JSON.stringify({ latencies, refused }));
