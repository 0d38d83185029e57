import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server answering as PayPal's REST API does (OAuth2 client credentials, catalog products,
 * billing plans, subscriptions create/get/cancel, verify-webhook-signature), in PayPal's documented
 * request and response shapes, with PayPal-Request-Id idempotency. Webhook signatures are an HMAC only
 * this stand-in knows; `signWebhook` produces genuine ones, anything else verifies as FAILURE.
 */
export interface PaypalStandinSubscription {
  id: string;
  status: string;
  plan_id: string;
  quantity?: string;
  custom_id?: string;
  start_time: string;
  create_time: string;
  status_update_time: string;
  subscriber?: { email_address?: string };
  application_context?: { return_url?: string; cancel_url?: string };
  billing_info?: { next_billing_time?: string };
  links: { href: string; rel: string; method: string }[];
}

type Json = Record<string, unknown>;

export async function startPaypalStandin(options: {
  clientId: string;
  clientSecret: string;
  webhookId: string;
}) {
  const signingKey = randomBytes(32);
  const tokens = new Set<string>();
  const products = new Map<string, Json>();
  const plans = new Map<string, Json>();
  const subscriptions = new Map<string, PaypalStandinSubscription>();
  const byRequestId = new Map<string, { status: number; body: unknown }>();
  const calls: { method: string; path: string; requestId: string | undefined }[] = [];
  let baseUrl = '';
  const newId = (prefix: string) => `${prefix}-${randomBytes(8).toString('hex').toUpperCase()}`;
  const now = () => new Date().toISOString();

  const signatureFor = (id: string, time: string, webhookId: string, event: unknown) =>
    createHmac('sha256', signingKey)
      .update(
        `${id}|${time}|${webhookId}|${createHash('sha256').update(JSON.stringify(event)).digest('hex')}`,
      )
      .digest('base64');

  function error(status: number, name: string, message: string) {
    return { status, body: { name, message, debug_id: randomBytes(6).toString('hex') } };
  }

  function handle(method: string, path: string, body: Json): { status: number; body?: unknown } {
    if (method === 'POST' && path === '/v1/catalogs/products') {
      const product = { id: newId('PROD'), ...body, create_time: now() };
      products.set(product.id, product);
      return { status: 201, body: product };
    }
    if (method === 'POST' && path === '/v1/billing/plans') {
      if (!products.has(String(body.product_id)))
        return error(404, 'RESOURCE_NOT_FOUND', 'product not found');
      const plan = { id: newId('P'), ...body, status: 'ACTIVE', create_time: now() };
      plans.set(plan.id, plan);
      return { status: 201, body: plan };
    }
    if (method === 'POST' && path === '/v1/billing/subscriptions') {
      const plan = plans.get(String(body.plan_id));
      if (!plan) return error(422, 'UNPROCESSABLE_ENTITY', 'plan not found');
      // PayPal refuses a quantity for a plan created without quantity_supported.
      if (body.quantity !== undefined && plan.quantity_supported !== true) {
        return error(422, 'UNPROCESSABLE_ENTITY', 'SUBSCRIPTION_CANNOT_HAVE_QUANTITY');
      }
      if (body.quantity !== undefined && !/^[1-9][0-9]*$/.test(String(body.quantity))) {
        return error(400, 'INVALID_REQUEST', 'quantity must be a positive whole number as a string');
      }
      const id = newId('I');
      const subscription: PaypalStandinSubscription = {
        id,
        status: 'APPROVAL_PENDING',
        plan_id: String(body.plan_id),
        ...(typeof body.quantity === 'string' ? { quantity: body.quantity } : {}),
        ...(typeof body.custom_id === 'string' ? { custom_id: body.custom_id } : {}),
        start_time: now(),
        create_time: now(),
        status_update_time: now(),
        ...(body.subscriber
          ? { subscriber: body.subscriber as PaypalStandinSubscription['subscriber'] }
          : {}),
        application_context: body.application_context as PaypalStandinSubscription['application_context'],
        links: [
          {
            href: `https://www.sandbox.paypal.com/webapps/billing/subscriptions?ba_token=BA-${id.slice(2)}`,
            rel: 'approve',
            method: 'GET',
          },
          { href: `${baseUrl}/v1/billing/subscriptions/${id}`, rel: 'edit', method: 'PATCH' },
          { href: `${baseUrl}/v1/billing/subscriptions/${id}`, rel: 'self', method: 'GET' },
        ],
      };
      subscriptions.set(id, subscription);
      return { status: 201, body: subscription };
    }
    const match = /^\/v1\/billing\/subscriptions\/([^/]+)(\/cancel)?$/.exec(path);
    if (match) {
      const subscription = subscriptions.get(decodeURIComponent(match[1]!));
      if (!subscription) return error(404, 'RESOURCE_NOT_FOUND', 'The specified resource does not exist.');
      if (method === 'GET' && !match[2]) return { status: 200, body: subscription };
      if (method === 'POST' && match[2]) {
        if (!['ACTIVE', 'SUSPENDED'].includes(subscription.status)) {
          return error(422, 'UNPROCESSABLE_ENTITY', 'SUBSCRIPTION_STATUS_INVALID');
        }
        subscription.status = 'CANCELLED';
        subscription.status_update_time = now();
        return { status: 204 };
      }
    }
    if (method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
      const required = ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time'];
      if (required.some((field) => typeof body[field] !== 'string') || !body.webhook_event) {
        return error(400, 'VALIDATION_ERROR', 'Invalid request - see details');
      }
      const expected = signatureFor(
        String(body.transmission_id),
        String(body.transmission_time),
        String(body.webhook_id),
        body.webhook_event,
      );
      const genuine = body.webhook_id === options.webhookId && body.transmission_sig === expected;
      return { status: 200, body: { verification_status: genuine ? 'SUCCESS' : 'FAILURE' } };
    }
    return error(404, 'NOT_FOUND', `no route ${method} ${path}`);
  }

  function respond(response: ServerResponse, status: number, body?: unknown) {
    response.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
    response.end(body === undefined ? undefined : JSON.stringify(body));
  }

  async function serve(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = (request.url ?? '/').split('?')[0]!;
    const method = request.method ?? 'GET';
    const requestId = request.headers['paypal-request-id'] as string | undefined;
    calls.push({ method, path, requestId });
    const auth = request.headers.authorization ?? '';
    if (path === '/v1/oauth2/token') {
      const expected = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`;
      if (method !== 'POST' || auth !== expected || raw !== 'grant_type=client_credentials') {
        return respond(response, 401, {
          error: 'invalid_client',
          error_description: 'Client Authentication failed',
        });
      }
      const token = `A21AA${randomBytes(16).toString('hex')}`;
      tokens.add(token);
      return respond(response, 200, {
        scope: 'https://uri.paypal.com/services/subscriptions',
        access_token: token,
        token_type: 'Bearer',
        app_id: 'APP-80W284485P519543T',
        expires_in: 32400,
        nonce: randomBytes(8).toString('hex'),
      });
    }
    if (!tokens.has(auth.replace(/^Bearer /, ''))) {
      return respond(response, 401, {
        error: 'invalid_token',
        error_description: 'Token signature verification failed',
      });
    }
    const key = requestId ? `${method} ${path} ${requestId}` : undefined;
    const remembered = key ? byRequestId.get(key) : undefined;
    if (remembered) return respond(response, remembered.status, remembered.body);
    let body: Json = {};
    try {
      body = raw ? (JSON.parse(raw) as Json) : {};
    } catch {
      return respond(response, 400, {
        name: 'MALFORMED_REQUEST_JSON',
        message: 'The request JSON is not well formed.',
      });
    }
    const answer = handle(method, path, body);
    if (key && answer.status < 300) byRequestId.set(key, { status: answer.status, body: answer.body });
    return respond(response, answer.status, answer.body);
  }

  const server = createServer((request, response) => {
    serve(request, response).catch((failure: unknown) =>
      respond(response, 500, { name: 'INTERNAL_SERVER_ERROR', message: String(failure) }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    calls,
    products,
    plans,
    subscriptions,
    count(method: string, pattern: RegExp) {
      return calls.filter((call) => call.method === method && pattern.test(call.path)).length;
    },
    /** What PayPal does when the buyer approves on the approval page. */
    approve(id: string, nextBillingTime = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString()) {
      const subscription = subscriptions.get(id);
      if (!subscription) throw new Error(`no subscription ${id}`);
      subscription.status = 'ACTIVE';
      subscription.billing_info = { next_billing_time: nextBillingTime };
    },
    /** A delivery as PayPal would send it: the JSON body and its transmission headers, genuinely signed. */
    signWebhook(event: Json, webhookId = options.webhookId) {
      const transmissionId = randomBytes(8).toString('hex');
      const transmissionTime = now();
      return {
        body: JSON.stringify(event),
        headers: {
          'content-type': 'application/json',
          'paypal-auth-algo': 'SHA256withRSA',
          'paypal-cert-url':
            'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-1d93a270',
          'paypal-transmission-id': transmissionId,
          'paypal-transmission-time': transmissionTime,
          'paypal-transmission-sig': signatureFor(transmissionId, transmissionTime, webhookId, event),
        },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type PaypalStandin = Awaited<ReturnType<typeof startPaypalStandin>>;
