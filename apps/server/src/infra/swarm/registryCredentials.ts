import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import bcrypt from 'bcryptjs';

const run = promisify(execFile);

/**
 * What one cluster's registry needs, made per cluster: a CA of its own (the engines trust it for this registry's
 * address only, /etc/docker/certs.d/{address}:{port}/ca.crt), the registry's certificate for its private address,
 * and one user whose password is random and whose bcrypt hash is the registry's htpasswd file. Keep the whole
 * value in the vault: the key and password are secrets.
 */
export interface RegistryCredentials {
  caCert: string;
  cert: string;
  key: string;
  username: string;
  password: string;
  htpasswd: string;
}

/** Makes the CA, the certificate for `address` (an IP: the registry's node's private address) and the user. */
export async function createRegistryCredentials(address: string): Promise<RegistryCredentials> {
  if (isIP(address) === 0) throw new Error(`The registry's address must be an IP address: ${address}`);
  const dir = await mkdtemp(path.join(tmpdir(), 'slipway-registry-tls-'));
  const file = (name: string) => path.join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  try {
    await run('openssl', [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.crt'),
      '-days',
      '3650',
      '-subj',
      '/CN=Slipway cluster registry CA',
    ]);
    await run('openssl', [
      'req',
      ...ec,
      '-keyout',
      file('registry.key'),
      '-out',
      file('registry.csr'),
      '-subj',
      `/CN=${address}`,
    ]);
    await writeFile(file('san.cnf'), `subjectAltName=IP:${address}\nextendedKeyUsage=serverAuth\n`);
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      file('registry.csr'),
      '-CA',
      file('ca.crt'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-days',
      '825',
      '-out',
      file('registry.crt'),
      '-extfile',
      file('san.cnf'),
    ]);
    const password = randomBytes(24).toString('base64url');
    const username = 'slipway';
    return {
      caCert: await readFile(file('ca.crt'), 'utf8'),
      cert: await readFile(file('registry.crt'), 'utf8'),
      key: await readFile(file('registry.key'), 'utf8'),
      username,
      password,
      // The registry reads bcrypt only.
      htpasswd: `${username}:${bcrypt.hashSync(password, 10)}\n`,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
