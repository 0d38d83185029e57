import type { Config } from '../config/config.js';
import { createCaddyIngress } from '../infra/ingress/caddyIngress.js';
import { createDirectIngress, type Ingress } from '../infra/ingress/ingress.js';

/** Caddy through its admin API when CADDY_ADMIN_URL is set, else direct localhost links. */
export function chooseIngress(config: Config): Ingress {
  const { caddyAdminUrl, publicDomain, httpsPort } = config.ingress;
  return caddyAdminUrl
    ? createCaddyIngress({ adminUrl: caddyAdminUrl, publicDomain, httpsPort })
    : createDirectIngress();
}
