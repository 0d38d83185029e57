import { findVmSize } from '@slipway/contract';
import { describe, expect, it } from 'vitest';
import { priceText } from './nodePrice';

describe('a workspace price by its nodes', () => {
  it('is the VM size price for one node, and that price for each node beyond', () => {
    const size = findVmSize('Standard_B2ats_v2')!;
    expect(priceText(size, 1)).toBe('$12/month');
    expect(priceText(size, 3)).toBe('$36/month (3 × $12)');
  });
});
