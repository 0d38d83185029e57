import { describe, expect, it } from 'vitest';
import { deployPath } from './deployPath';

describe('the deploy screen’s address', () => {
  it('names the repository, escaped, and the session it follows', () => {
    expect(deployPath('acme', 'shop')).toBe('/deploy/acme/shop');
    expect(deployPath('a b', 'shop/x', 's-1')).toBe('/deploy/a%20b/shop%2Fx?sessionId=s-1');
  });
});
