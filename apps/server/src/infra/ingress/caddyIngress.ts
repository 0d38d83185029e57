import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { dnsLabel } from '../compose/composeProject.js';
import type { Ingress } from './ingress.js';

const SERVER = 'slipway';
const TLS_POLICY_ID = 'slipway-internal-tls';

export const routeId = (workspaceId: string, service: string) =>
  `slipway-${workspaceId}-${dnsLabel(service)}`;

class CaddyError extends Error {
  override name = 'CaddyError';
}

/**
 * Caddy, configured through its admin API: one route per service host `{service}-{workspace}.{domain}`,
 * each with an `@id` so it can be replaced or removed alone. Without a public domain the hosts live under
 * `.localhost` and get certificates from Caddy's internal CA; with one, Caddy's automatic ACME applies.
 */
export function createCaddyIngress(options: {
  adminUrl: string;
  publicDomain: string | undefined;
  httpsPort: number;
  timeoutMs?: number;
}): Ingress {
  const base = options.adminUrl.replace(/\/$/, '');
  const domain = options.publicDomain ?? 'localhost';

  /**
   * One admin API call on a fresh connection: Caddy closes idle connections when it reloads its config,
   * and a pooled keep-alive socket would then fail the next call ("fetch failed").
   */
  function call(method: string, path: string, body?: unknown): Promise<unknown> {
    const url = new URL(`${base}${path}`);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const request = send(
        url,
        {
          method,
          agent: false,
          timeout: options.timeoutMs ?? 10_000,
          headers: payload === undefined ? {} : { 'content-type': 'application/json' },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            text += chunk;
          });
          response.on('end', () => {
            const status = response.statusCode ?? 0;
            if (status < 200 || status >= 300) {
              reject(new CaddyError(`Caddy ${method} ${path} answered ${status}: ${text.slice(0, 300)}`));
            } else {
              resolve(text.trim() ? JSON.parse(text) : null);
            }
          });
        },
      );
      request.on('timeout', () => request.destroy(new CaddyError(`Caddy ${method} ${path} timed out`)));
      request.on('error', reject);
      request.end(payload);
    });
  }

  /**
   * Creates each missing level of the path; Caddy's PUT only creates a key whose parent exists. A key that
   * appeared meanwhile (another replica, or a GET answered during a config reload) is already what we want.
   */
  async function ensure(path: string, value: unknown) {
    const existing = await call('GET', path).catch(() => null);
    if (existing !== null && existing !== undefined) return;
    await call('PUT', path, value).catch((error: Error) => {
      if (!/already exists/.test(error.message)) throw error;
    });
  }

  async function ensureServer() {
    await ensure('/config/apps', {});
    await ensure('/config/apps/http', {});
    await ensure('/config/apps/http/servers', {});
    await ensure(`/config/apps/http/servers/${SERVER}`, { listen: [`:${options.httpsPort}`], routes: [] });
    await ensure(`/config/apps/http/servers/${SERVER}/routes`, []);
    if (!options.publicDomain) {
      const policy = await call('GET', `/id/${TLS_POLICY_ID}`).catch(() => null);
      if (!policy) {
        await ensure('/config/apps/tls', {});
        await ensure('/config/apps/tls/automation', {});
        await ensure('/config/apps/tls/automation/policies', []);
        await call('POST', '/config/apps/tls/automation/policies', {
          '@id': TLS_POLICY_ID,
          issuers: [{ module: 'internal' }],
        });
      }
    }
  }

  const urlFor = (host: string) =>
    `https://${host}${options.httpsPort === 443 ? '' : `:${options.httpsPort}`}`;

  return {
    kind: 'caddy',
    async publish(workspace, targets) {
      await ensureServer();
      const routes = ((await call('GET', `/config/apps/http/servers/${SERVER}/routes`)) ?? []) as {
        '@id'?: string;
        match?: { host?: string[] }[];
      }[];
      const urls: Record<string, string> = {};
      for (const target of targets) {
        if (urls[target.service]) continue; // one route per service: its first port
        const id = routeId(workspace.id, target.service);
        let host = `${dnsLabel(target.service)}-${dnsLabel(workspace.name)}.${domain}`;
        // Two users may both have a workspace named "app": the second gets a host of its own.
        const takenByOther = routes.some(
          (route) => route['@id'] !== id && route.match?.some((m) => m.host?.includes(host)),
        );
        if (takenByOther)
          host = `${dnsLabel(target.service)}-${dnsLabel(workspace.name)}-${workspace.id.slice(0, 8)}.${domain}`;
        await call('DELETE', `/id/${id}`).catch(() => {});
        await call('POST', `/config/apps/http/servers/${SERVER}/routes`, {
          '@id': id,
          match: [{ host: [host] }],
          handle: [{ handler: 'reverse_proxy', upstreams: [{ dial: target.upstream }] }],
          terminal: true,
        });
        urls[target.service] = urlFor(host);
      }
      return urls;
    },
    async unpublish(workspaceId, services) {
      for (const service of services)
        await call('DELETE', `/id/${routeId(workspaceId, service)}`).catch(() => {});
    },
  };
}
