import { createHmac, timingSafeEqual } from 'node:crypto';

/** GitHub's signature of a delivery: `sha256=` and the hex HMAC-SHA256 of the exact body with the secret. */
export const signDelivery = (secret: string, body: Buffer | string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

const SIGNATURE = /^sha256=[0-9a-f]{64}$/;

/** Whether `header` (X-Hub-Signature-256) signs `body` with `secret`, compared in constant time. */
export function verifyDeliverySignature(secret: string, body: Buffer, header: unknown): boolean {
  if (typeof header !== 'string' || !SIGNATURE.test(header)) return false;
  const expected = Buffer.from(signDelivery(secret, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
