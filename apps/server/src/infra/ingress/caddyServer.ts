import type { CaddyAdmin, TaggedValue } from './caddyAdmin.js';
import type { CaddyRoute } from './caddyRoutes.js';

const SERVER = 'slipway';
export const ROUTES = `/config/apps/http/servers/${SERVER}/routes`;

/**
 * Creates each missing level of Slipway's server: a Caddy that restarted empty has none of it. Caddy's PUT
 * only creates a key whose parent exists; a key that appeared meanwhile (another replica) is already what we
 * want.
 */
export async function ensureServer(admin: CaddyAdmin, httpsPort: number): Promise<void> {
  if ((await admin.read(ROUTES)) !== null) return;
  const ensure = async (path: string, value: unknown) => {
    const existing = await admin.read(path);
    if (existing !== null && existing !== undefined) return;
    await admin.call('PUT', path, value).catch((error: Error) => {
      if (!/already exists/.test(error.message)) throw error;
    });
  };
  await ensure('/config/apps', {});
  await ensure('/config/apps/http', {});
  await ensure('/config/apps/http/servers', {});
  await ensure(`/config/apps/http/servers/${SERVER}`, { listen: [`:${httpsPort}`], routes: [] });
  await ensure(ROUTES, []);
}

/** Slipway's top-level routes and their etag; none when Caddy has no Slipway server (it restarted empty). */
export async function listRoutes(admin: CaddyAdmin): Promise<{ routes: CaddyRoute[]; etag?: string }> {
  const listed = await admin.readTagged(ROUTES).catch((error: { status?: number }): TaggedValue => {
    if (error.status === 400 || error.status === 404) return { value: null, etag: undefined };
    throw error;
  });
  if (listed.value === null) return { routes: [] };
  return { routes: listed.value as CaddyRoute[], etag: listed.etag };
}
