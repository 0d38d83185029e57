import type { Config } from '../config/config.js';
import { createCaddyIngress } from '../infra/ingress/caddyIngress.js';
import {
  type CustomHost,
  createDirectIngress,
  type Ingress,
  type OnDemandTls,
} from '../infra/ingress/ingress.js';

/**
 * Caddy through its admin API when CADDY_ADMIN_URL is set, else direct localhost links. Caddy serves each
 * workspace's verified custom domains on its route (`customHosts`) with certificates ordered on demand, each
 * first asked of this server's permission endpoint. `permissionUrl` is read when Caddy's configuration is
 * written: the platform answers the port the server really listens on (PORT=0 is known only after listen).
 */
export function chooseIngress(
  config: Config,
  deps: {
    customHosts: (workspaceId: string) => Promise<CustomHost[]>;
    permissionUrl: () => string;
    onError: (error: unknown, what: string) => void;
  },
): Ingress {
  const { caddyAdminUrl, publicDomain, httpsPort, acme } = config.ingress;
  if (!caddyAdminUrl) return createDirectIngress();
  const onDemandTls: OnDemandTls = {
    get permissionUrl() {
      return deps.permissionUrl();
    },
    acme: { directoryUrl: acme.directoryUrl, email: acme.email, caRootFile: acme.caRootFile },
  };
  return createCaddyIngress({
    adminUrl: caddyAdminUrl,
    publicDomain,
    httpsPort,
    customHosts: deps.customHosts,
    onDemandTls,
    onError: deps.onError,
  });
}
