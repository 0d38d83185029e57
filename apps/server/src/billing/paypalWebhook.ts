import type { Logger } from 'pino';
import { DomainError, invalid } from '../domain/errors.js';
import { refuseUnstorableText } from '../http/storableText.js';
import type { Db } from '../infra/db/client.js';
import { webhookEvents } from '../infra/db/schema.js';
import type { PaypalApi, PaypalTransmission } from '../infra/paypal/paypalApi.js';
import { PaypalApiError } from '../infra/paypal/paypalClient.js';
import { createBillingRepository } from './billingRepository.js';
import { applyPaypalEvent, paypalEventSchema } from './paypalEvents.js';

export type WebhookHeaders = Record<string, string | string[] | undefined>;

export interface WebhookOutcome {
  event_id: string;
  /** processed: acted on now; replayed: this event id was acted on before, nothing changed. */
  status: 'processed' | 'replayed';
  result: string;
}

const unverified = (why: string) => new DomainError('webhook_unverified', `PayPal webhook refused: ${why}`);

function transmissionFrom(headers: WebhookHeaders): PaypalTransmission | undefined {
  const header = (name: string) => {
    const value = headers[name];
    return typeof value === 'string' && value.length > 0 && value.length <= 4096 ? value : undefined;
  };
  const transmission = {
    authAlgo: header('paypal-auth-algo'),
    certUrl: header('paypal-cert-url'),
    transmissionId: header('paypal-transmission-id'),
    transmissionSig: header('paypal-transmission-sig'),
    transmissionTime: header('paypal-transmission-time'),
  };
  return Object.values(transmission).every(Boolean) ? (transmission as PaypalTransmission) : undefined;
}

/**
 * PayPal webhook deliveries: verified by PayPal's verify-webhook-signature call before anything changes
 * (and refused outright when no webhook id is configured), then recorded in `webhook_events` in the same
 * transaction that applies them, so each event id is acted on exactly once even across replicas.
 */
export function createPaypalWebhook(deps: {
  db: Db;
  paypal: PaypalApi | undefined;
  webhookId: string | undefined;
  logger: Logger;
}) {
  return {
    async receive(rawBody: string, headers: WebhookHeaders): Promise<WebhookOutcome> {
      if (!deps.paypal || !deps.webhookId) {
        throw unverified('PayPal webhooks are not configured on this server (PAYPAL_WEBHOOK_ID is unset)');
      }
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        throw invalid('The webhook body is not valid JSON');
      }
      refuseUnstorableText('body', json);
      const parsed = paypalEventSchema.safeParse(json);
      if (!parsed.success) throw invalid('The webhook body is not a PayPal event');
      const transmission = transmissionFrom(headers);
      if (!transmission) throw unverified('the PayPal transmission headers are missing');

      let verified: boolean;
      try {
        verified = await deps.paypal.verifyWebhookSignature(transmission, deps.webhookId, rawBody);
      } catch (error) {
        // PayPal refusing the verification request itself (4xx) is a failed verification; an outage is not.
        if (error instanceof PaypalApiError && error.status < 500) verified = false;
        else throw error;
      }
      if (!verified) {
        deps.logger.warn(
          { event: parsed.data.id, type: parsed.data.event_type },
          'unverified PayPal webhook',
        );
        throw unverified('the signature could not be verified');
      }

      const event = parsed.data;
      return deps.db.transaction(async (tx) => {
        const [first] = await tx
          .insert(webhookEvents)
          .values({ id: `paypal:${event.id}`, provider: 'paypal', eventType: event.event_type })
          .onConflictDoNothing()
          .returning({ id: webhookEvents.id });
        if (!first) return { event_id: event.id, status: 'replayed', result: 'already processed' };
        const result = await applyPaypalEvent(createBillingRepository(tx as unknown as Db), event);
        deps.logger.info({ event: event.id, type: event.event_type, result }, 'PayPal webhook processed');
        return { event_id: event.id, status: 'processed', result };
      });
    },
  };
}

export type PaypalWebhook = ReturnType<typeof createPaypalWebhook>;
