import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signDelivery, verifyDeliverySignature } from './webhookSignature.js';

const secret = 'a-webhook-secret-of-the-test';
const body = Buffer.from('{"zen":"Keep it logically awesome.","hook_id":1}');

describe('GitHub delivery signature', () => {
  it('is sha256= and the hex HMAC-SHA256 of the body, as GitHub documents it', () => {
    const hex = createHmac('sha256', secret).update(body).digest('hex');
    expect(signDelivery(secret, body)).toBe(`sha256=${hex}`);
    expect(verifyDeliverySignature(secret, body, `sha256=${hex}`)).toBe(true);
  });

  it('refuses another secret, another body, a missing or malformed header', () => {
    const good = signDelivery(secret, body);
    expect(verifyDeliverySignature('another-secret-entirely', body, good)).toBe(false);
    expect(verifyDeliverySignature(secret, Buffer.from(`${body} `), good)).toBe(false);
    expect(verifyDeliverySignature(secret, body, undefined)).toBe(false);
    expect(verifyDeliverySignature(secret, body, ['sha256=x'])).toBe(false);
    expect(verifyDeliverySignature(secret, body, good.replace('sha256=', 'sha1='))).toBe(false);
    expect(verifyDeliverySignature(secret, body, good.toUpperCase())).toBe(false);
    expect(verifyDeliverySignature(secret, body, good.slice(0, -2))).toBe(false);
  });
});
