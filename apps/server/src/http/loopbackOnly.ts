import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { notFound } from '../domain/errors.js';

/** Headers a proxy adds: a request carrying one came from elsewhere, whatever socket it arrived on. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host'];

/** Whether an address is this machine's loopback (IPv4 127/8, ::1, or IPv4-mapped 127/8). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address || isIP(address) === 0) return false;
  const mapped = address.toLowerCase().replace(/^::ffff:/, '');
  return mapped === '::1' || (isIP(mapped) === 4 && mapped.startsWith('127.'));
}

/**
 * For routes only this machine may call (Caddy asking whether it may order a certificate): the TCP peer
 * must be loopback — the socket's own address, never `request.ip`, which trusts forwarding headers — and
 * nothing may have been forwarded by a proxy (a public request relayed by a proxy on this machine arrives
 * from loopback too). Anything else is told there is nothing here.
 */
export async function requireLoopback(request: FastifyRequest): Promise<void> {
  const forwarded = FORWARDING_HEADERS.some((header) => request.headers[header] !== undefined);
  if (forwarded || !isLoopbackAddress(request.raw.socket.remoteAddress)) throw notFound();
}
