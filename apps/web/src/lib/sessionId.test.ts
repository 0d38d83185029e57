import { webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newSessionId } from './sessionId';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newSessionId', () => {
  it('is a v4 UUID with or without randomUUID', () => {
    expect(newSessionId(webcrypto as unknown as Crypto)).toMatch(UUID_V4);
    const withoutRandomUuid = {
      getRandomValues: <T extends ArrayBufferView | null>(a: T) => webcrypto.getRandomValues(a as never) as T,
    };
    const ids = new Set(Array.from({ length: 50 }, () => newSessionId(withoutRandomUuid)));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(UUID_V4);
  });
});
