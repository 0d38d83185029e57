import { describe, expect, it } from 'vitest';
import { isLastBranchPage } from './repositories';

describe('branch paging', () => {
  it('stops at an empty or short page', () => {
    expect(isLastBranchPage(0)).toBe(true);
    expect(isLastBranchPage(99)).toBe(true);
    expect(isLastBranchPage(100)).toBe(false);
  });
});
