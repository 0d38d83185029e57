import { describe, expect, it } from 'vitest';
import { auditDetailSummary, firstInfoLines, fullName, lastLines, safeHref } from './adminFormat';

describe('adminFormat', () => {
  it('joins names', () => {
    expect(fullName({ first_name: 'Wanda', last_name: null })).toBe('Wanda');
    expect(fullName({ first_name: 'Wanda', last_name: 'Waits' })).toBe('Wanda Waits');
  });
  it('keeps the last 50 log lines and the first 20 info lines', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `line ${i}`);
    expect(lastLines(hundred)).toHaveLength(50);
    expect(lastLines(hundred)[0]).toBe('line 50');
    expect(firstInfoLines(hundred.join('\r\n'))).toEqual(hundred.slice(0, 20));
  });
});

describe('safeHref', () => {
  it('links only http(s) addresses', () => {
    expect(safeHref('https://a.example')).toBe('https://a.example');
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
  });
});

describe('auditDetailSummary', () => {
  it('puts the detail on one line, lists joined and nulls as a dash', () => {
    expect(
      auditDetailSummary({ name: 'ci', scopes: ['read', 'deploy'], workspaces: null, expires_in: 900 }),
    ).toBe('name: ci · scopes: read, deploy · workspaces: — · expires_in: 900');
    expect(auditDetailSummary({})).toBe('');
  });
  it('cuts a long detail short', () => {
    const summary = auditDetailSummary({ reason: 'x'.repeat(500) }, 40);
    expect(summary).toHaveLength(40);
    expect(summary.endsWith('…')).toBe(true);
  });
});
