import type { Config } from '../config/config.js';
import { createPaypalApi, type PaypalApi } from '../infra/paypal/paypalApi.js';
import { createPaypalClient } from '../infra/paypal/paypalClient.js';

/** PayPal's API when its credentials are configured (billing runs in `paypal` mode), else none (`free-beta`). */
export function choosePaypal(config: Config): PaypalApi | undefined {
  const { clientId, clientSecret, apiUrl } = config.paypal;
  return clientId && clientSecret
    ? createPaypalApi(createPaypalClient({ apiUrl, clientId, clientSecret }))
    : undefined;
}
