import { execFileSync } from 'node:child_process';
import tls from 'node:tls';
import { startCaddy } from '../../apps/server/src/test/fixtures/caddyProcess.js';
import { startPebble } from '../../apps/server/src/test/fixtures/pebbleProcess.js';
import { startTestDns, type TestDns } from '../../apps/server/src/test/fixtures/testDns.js';

/** Whether Caddy, pebble and its DNS test server are installed (Debian's `caddy` and `pebble`). */
export function acmeToolsInstalled(): boolean {
  try {
    for (const tool of ['caddy', 'pebble', 'pebble-challtestsrv'])
      execFileSync('which', [tool], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface AcmeIngress {
  dns: TestDns;
  caddy: Awaited<ReturnType<typeof startCaddy>>;
  pebble: Awaited<ReturnType<typeof startPebble>>;
  /** What the Slipway server needs to check DNS against the test DNS and have Caddy order from pebble. */
  serverEnv: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Custom domains' real parts, offline: a test DNS that Slipway and pebble both ask, Caddy in front of the
 * services, and pebble (an RFC 8555 CA) validating against Caddy's HTTP and HTTPS ports.
 */
export async function startAcmeIngress(): Promise<AcmeIngress> {
  const dns = await startTestDns();
  const caddy = await startCaddy();
  const pebble = await startPebble({
    dnsServer: dns.server,
    httpPort: caddy.httpPort,
    tlsPort: caddy.httpsPort,
  }).catch(async (error: unknown) => {
    await caddy.stop();
    await dns.stop();
    throw error;
  });
  return {
    dns,
    caddy,
    pebble,
    serverEnv: {
      DNS_SERVERS: dns.server,
      INGRESS_ADDRESSES: '127.0.0.1',
      ACME_CA: pebble.directoryUrl,
      ACME_CA_ROOT: pebble.caRootFile,
      ACME_CAA_IDENTITIES: 'pebble',
      CADDY_ADMIN_URL: caddy.adminUrl,
      INGRESS_HTTPS_PORT: String(caddy.httpsPort),
    },
    async stop() {
      await pebble.stop();
      await caddy.stop();
      await dns.stop();
    },
  };
}

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
