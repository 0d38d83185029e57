import tls from 'node:tls';
import type { TestDns } from '../../apps/server/src/test/fixtures/testDns.js';

/** A DNS record as the Domains tab lists it. */
export interface ShownRecord {
  type: string;
  name: string;
  value: string;
}

/**
 * Puts the records the page asked for into the test DNS. A CNAME's target gets an A record to loopback
 * too: the service's own host name is not in the test DNS, and pebble must reach Caddy through it.
 */
export async function addRecords(dns: TestDns, records: ShownRecord[]): Promise<void> {
  for (const record of records) {
    if (record.type === 'TXT') await dns.setTxt(record.name, record.value);
    else if (record.type === 'A') await dns.addA(record.name, [record.value]);
    else if (record.type === 'AAAA') await dns.addAaaa(record.name, [record.value]);
    else if (record.type === 'CNAME') {
      await dns.setCname(record.name, record.value);
      await dns.addA(record.value, ['127.0.0.1']);
    } else throw new Error(`No test DNS record for type ${record.type}`);
  }
}

/**
 * The certificate Caddy serves for `servername` on 127.0.0.1:`port`, the chain checked against `ca` only
 * (Node refuses the handshake otherwise), with the name checked too.
 */
export function servedCertificate(
  servername: string,
  port: number,
  ca: string,
): Promise<tls.PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername, ca }, () => {
      const certificate = socket.getPeerCertificate();
      socket.end();
      resolve(certificate);
    });
    socket.on('error', reject);
  });
}
