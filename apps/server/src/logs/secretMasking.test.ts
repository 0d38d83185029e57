import { describe, expect, it } from 'vitest';
import { createSecretMask, createSecretMasks, MASKED } from './secretMasking.js';

describe('secret masking', () => {
  it('masks values of 6 characters or more, every occurrence, longest first, multi-line values by line', () => {
    const mask = createSecretMask(['s3cr3t-token', 's3cr3t', 'short', 'first line\nsecond line', '']);
    expect(mask('token=s3cr3t-token and s3cr3t-token again')).toBe(`token=${MASKED} and ${MASKED} again`);
    expect(mask('just s3cr3t')).toBe(`just ${MASKED}`);
    // Five characters and less stay: `short`, `true` or a port number would blank out ordinary text.
    expect(mask('a short line')).toBe('a short line');
    expect(mask('got: second line')).toBe(`got: ${MASKED}`);
    expect(mask('first line\nsecond line')).toBe(MASKED);
    expect(createSecretMask([])('nothing to hide')).toBe('nothing to hide');
  });

  it("reads a workspace's values once for a burst of lines, and again once they may have changed", async () => {
    let reads = 0;
    const masks = createSecretMasks({
      loadValues: async (userId, workspace) => {
        reads++;
        return [`${userId}-${workspace}-value`];
      },
    });
    const [a, b] = await Promise.all([masks.forWorkspace('u1', 'app'), masks.forWorkspace('u1', 'app')]);
    expect(a('x u1-app-value y')).toBe(`x ${MASKED} y`);
    expect(b('u2-app-value')).toBe('u2-app-value');
    expect(reads).toBe(1);
    await masks.forWorkspace('u2', 'app');
    expect(reads).toBe(2);
  });

  it('fails closed when the values cannot be read, and tries again next time', async () => {
    let fail = true;
    const masks = createSecretMasks({
      loadValues: async () => {
        if (fail) throw new Error('decrypt failed');
        return ['abcdef'];
      },
    });
    await expect(masks.forWorkspace('u', 'w')).rejects.toThrow('decrypt failed');
    fail = false;
    expect((await masks.forWorkspace('u', 'w'))('abcdef')).toBe(MASKED);
  });
});
