import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import ssh2, { type Client } from 'ssh2';

export interface SshEndpoint {
  host: string;
  port: number;
  username: string;
  privateKey: string;
  /** SHA-256 of the server's host key, pinned when the VM was registered; absent the first time. */
  hostKeySha256?: string | undefined;
}

export const hostKeyFingerprint = (key: Buffer) => createHash('sha256').update(key).digest('base64');

/** Opens an SSH connection that accepts only the pinned host key (or records it on first contact). */
export function openSsh(
  endpoint: SshEndpoint,
  timeoutMs = 20_000,
): Promise<{ client: Client; hostKeySha256: string }> {
  return new Promise((resolve, reject) => {
    // ssh2 is CommonJS: its classes come through the default export under Node's ESM loader.
    const client = new ssh2.Client();
    let seen = '';
    client.once('ready', () => resolve({ client, hostKeySha256: seen }));
    client.once('error', reject);
    client.connect({
      host: endpoint.host,
      port: endpoint.port,
      username: endpoint.username,
      privateKey: endpoint.privateKey,
      readyTimeout: timeoutMs,
      keepaliveInterval: 15_000,
      hostVerifier: (key: Buffer) => {
        seen = hostKeyFingerprint(key);
        return !endpoint.hostKeySha256 || endpoint.hostKeySha256 === seen;
      },
    });
  });
}

/**
 * The remote Docker Engine's socket, forwarded over SSH to a unix socket in a private (0700) temp dir.
 * Dockerode and both Compose CLIs use it as a local engine: no key file on disk, nothing needed on the server
 * beyond sshd and Docker.
 */
export async function forwardDockerSocket(client: Client, remoteSocket: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'slipway-ssh-'));
  const socketPath = path.join(dir, 'docker.sock');
  const server = net.createServer((local) => {
    client.openssh_forwardOutStreamLocal(remoteSocket, (error, remote) => {
      if (error) return local.destroy();
      local.pipe(remote).pipe(local);
      local.on('error', () => remote.destroy());
      remote.on('error', () => local.destroy());
      local.on('close', () => remote.destroy());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  return {
    socketPath,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A TCP connection to `address:port` as seen from the server, through the SSH connection. */
export function forwardTcp(client: Client, address: string, port: number): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    client.forwardOut('127.0.0.1', 0, address, port, (error, stream) =>
      error ? reject(error) : resolve(stream),
    );
  });
}

/** Free bytes of the file system holding `dir` on the server (`stat -f`), or undefined when it cannot tell. */
export function remoteFreeBytes(client: Client, dir: string): Promise<number | undefined> {
  // The path is the engine's own root directory (from `docker info`), quoted for the remote shell all the same.
  const quoted = `'${dir.replaceAll("'", "'\\''")}'`;
  return new Promise((resolve) => {
    client.exec(`stat -f -c '%a %S' -- ${quoted}`, (error, stream) => {
      if (error) return resolve(undefined);
      let out = '';
      stream.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
      });
      stream.stderr.resume();
      stream.on('close', () => {
        const [available, blockSize] = out.trim().split(/\s+/).map(Number);
        resolve(available !== undefined && blockSize ? available * blockSize : undefined);
      });
    });
  });
}
