import { readFile } from 'node:fs/promises';

const MIGRATE_REQ = '/proc/sys/net/ipv4/tcp_migrate_req';

/**
 * Caddy 2.6 binds a new SO_REUSEPORT listener at every configuration change (each deployment's route
 * update) and closes the old one; Linux resets the connections still queued on the closed socket unless
 * `net.ipv4.tcp_migrate_req` is 1, which hands them to the new listener. Measured here: 100 clients and a
 * reload every few ms, 9–38 resets per ~5,000 requests with 0, 0–1 with 1. Undefined when the setting is
 * right (or the kernel has none); otherwise what to do, for the start-up log.
 */
export async function reloadResetWarning(): Promise<string | undefined> {
  const value = await readFile(MIGRATE_REQ, 'utf8').catch(() => undefined);
  if (value === undefined || value.trim() === '1') return undefined;
  return 'net.ipv4.tcp_migrate_req is 0: each Caddy configuration change (every deployment) can reset connections waiting to be accepted. Set it with: sysctl -w net.ipv4.tcp_migrate_req=1 (and in /etc/sysctl.d/ to keep it).';
}
