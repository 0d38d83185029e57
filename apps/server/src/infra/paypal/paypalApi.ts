import type { PaypalClient } from './paypalClient.js';

/** The parts of PayPal's subscription resource we read (GET/POST /v1/billing/subscriptions). */
export interface PaypalSubscription {
  id: string;
  status: 'APPROVAL_PENDING' | 'APPROVED' | 'ACTIVE' | 'SUSPENDED' | 'CANCELLED' | 'EXPIRED' | string;
  plan_id?: string;
  /** How many units of the plan (PayPal writes it as a string): Slipway's nodes. */
  quantity?: string;
  custom_id?: string;
  start_time?: string;
  billing_info?: {
    next_billing_time?: string;
    last_payment?: { amount?: { currency_code: string; value: string }; time?: string };
    last_failed_payment?: { amount?: { currency_code: string; value: string }; time?: string };
  };
  links?: { href: string; rel: string; method?: string }[];
}

/** The transmission headers PayPal sends with every webhook delivery. */
export interface PaypalTransmission {
  authAlgo: string;
  certUrl: string;
  transmissionId: string;
  transmissionSig: string;
  transmissionTime: string;
}

export interface NewPlan {
  productId: string;
  name: string;
  description: string;
  /** Decimal string, e.g. "12.00". */
  price: string;
  currency: string;
}

export interface NewSubscription {
  planId: string;
  /** Units of the plan, each at its price (the plan must support quantities). */
  quantity: number;
  customId: string;
  returnUrl: string;
  cancelUrl: string;
  email?: string | undefined;
}

/** The PayPal Subscriptions calls Slipway makes, in PayPal's documented shapes. */
export function createPaypalApi(client: PaypalClient) {
  return {
    async createProduct(input: { name: string; description: string; requestId: string }): Promise<string> {
      const product = await client.request<{ id: string }>({
        method: 'POST',
        path: '/v1/catalogs/products',
        requestId: input.requestId,
        body: { name: input.name, description: input.description, type: 'SERVICE', category: 'SOFTWARE' },
      });
      return product.id;
    },

    async createPlan(plan: NewPlan, requestId: string): Promise<string> {
      const created = await client.request<{ id: string }>({
        method: 'POST',
        path: '/v1/billing/plans',
        requestId,
        body: {
          product_id: plan.productId,
          name: plan.name,
          description: plan.description,
          status: 'ACTIVE',
          // One unit per node: a subscription's quantity multiplies the price.
          quantity_supported: true,
          billing_cycles: [
            {
              frequency: { interval_unit: 'MONTH', interval_count: 1 },
              tenure_type: 'REGULAR',
              sequence: 1,
              total_cycles: 0,
              pricing_scheme: { fixed_price: { value: plan.price, currency_code: plan.currency } },
            },
          ],
          payment_preferences: {
            auto_bill_outstanding: true,
            setup_fee_failure_action: 'CANCEL',
            payment_failure_threshold: 3,
          },
        },
      });
      return created.id;
    },

    /** Creates the subscription; the buyer approves it on PayPal's page behind the `approve` link. */
    async createSubscription(
      input: NewSubscription,
      requestId: string,
    ): Promise<{ id: string; status: string; approveUrl: string | null }> {
      const created = await client.request<PaypalSubscription>({
        method: 'POST',
        path: '/v1/billing/subscriptions',
        requestId,
        body: {
          plan_id: input.planId,
          quantity: String(input.quantity),
          custom_id: input.customId,
          ...(input.email ? { subscriber: { email_address: input.email } } : {}),
          application_context: {
            brand_name: 'Slipway',
            user_action: 'SUBSCRIBE_NOW',
            shipping_preference: 'NO_SHIPPING',
            return_url: input.returnUrl,
            cancel_url: input.cancelUrl,
          },
        },
      });
      const approve = created.links?.find((link) => link.rel === 'approve');
      return { id: created.id, status: created.status, approveUrl: approve?.href ?? null };
    },

    getSubscription(id: string): Promise<PaypalSubscription> {
      return client.request<PaypalSubscription>({
        method: 'GET',
        path: `/v1/billing/subscriptions/${encodeURIComponent(id)}`,
      });
    },

    async cancelSubscription(id: string, reason: string, requestId: string): Promise<void> {
      await client.request<undefined>({
        method: 'POST',
        path: `/v1/billing/subscriptions/${encodeURIComponent(id)}/cancel`,
        requestId,
        body: { reason: reason.slice(0, 128) },
      });
    },

    /**
     * Asks PayPal whether a delivery is genuine. The event goes back byte for byte as it arrived:
     * PayPal's signature covers the raw body, and re-serialising it can make a genuine event fail.
     */
    async verifyWebhookSignature(
      transmission: PaypalTransmission,
      webhookId: string,
      rawEvent: string,
    ): Promise<boolean> {
      const fields = JSON.stringify({
        auth_algo: transmission.authAlgo,
        cert_url: transmission.certUrl,
        transmission_id: transmission.transmissionId,
        transmission_sig: transmission.transmissionSig,
        transmission_time: transmission.transmissionTime,
        webhook_id: webhookId,
      });
      const body = `${fields.slice(0, -1)},"webhook_event":${rawEvent}}`;
      const answer = await client.request<{ verification_status?: string }>({
        method: 'POST',
        path: '/v1/notifications/verify-webhook-signature',
        body,
      });
      return answer.verification_status === 'SUCCESS';
    },
  };
}

export type PaypalApi = ReturnType<typeof createPaypalApi>;
