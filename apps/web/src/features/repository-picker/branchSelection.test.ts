import { describe, expect, it } from 'vitest';
import { confirmDisabled, filterBranches, filterVmSizes, limitEntries } from './branchSelection';

describe('branches', () => {
  it('searches case-insensitively by substring', () => {
    expect(filterBranches(['Feature/Login', 'main', 'fix'], 'FEAT')).toEqual(['Feature/Login']);
    expect(filterBranches(['a', 'b'], '')).toEqual(['a', 'b']);
  });
  it('shows at most 10 with the hint', () => {
    const names = Array.from({ length: 15 }, (_, i) => `b${i}`);
    const { shown, moreText } = limitEntries(names, 'branches');
    expect(shown).toHaveLength(10);
    expect(moreText).toBe('Showing 10 of 15 branches. Type to search more.');
    expect(limitEntries(names.slice(0, 10), 'branches').moreText).toBeNull();
  });
});

describe('VM size search', () => {
  const sizes = [
    { name: '1 GB RAM', description: 'Small apps and development', specs: '2 vCPUs, 1 GB RAM' },
    { name: '4 GB RAM', description: 'Production', specs: '2 vCPUs, 4 GB RAM' },
  ];
  it('matches name, description or specs', () => {
    expect(filterVmSizes(sizes, '4 gb')).toHaveLength(1);
    expect(filterVmSizes(sizes, 'production')).toHaveLength(1);
    expect(filterVmSizes(sizes, 'vcpus')).toHaveLength(2);
    expect(filterVmSizes(sizes, 'gpu')).toHaveLength(0);
  });
});

describe('confirmDisabled', () => {
  const base = { loading: false, showBranchSelection: true, branch: 'main', branchesLoading: false };
  it('follows the spec', () => {
    expect(confirmDisabled(base)).toBe(false);
    expect(confirmDisabled({ ...base, loading: true })).toBe(true);
    expect(confirmDisabled({ ...base, branch: '' })).toBe(true);
    expect(confirmDisabled({ ...base, branch: '', branchesLoading: true })).toBe(false);
    expect(confirmDisabled({ ...base, branch: '', showBranchSelection: false })).toBe(false);
  });
});
