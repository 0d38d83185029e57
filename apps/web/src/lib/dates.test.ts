import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './dates';

describe('dates', () => {
  it('shows a dash for a missing or unreadable date, and epoch seconds as a date', () => {
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('')).toBe('—');
    expect(formatDateTime('not a date')).toBe('—');
    expect(formatDate(undefined)).toBe('—');
    expect(formatDateTime(86_400)).toBe(formatDateTime(new Date(86_400_000).toISOString()));
    expect(formatDateTime(0)).not.toBe('—');
  });
  it('reads the same instant the same way whatever form it comes in', () => {
    const iso = '2025-01-05T14:30:00Z';
    expect(formatDateTime(Date.parse(iso) / 1000)).toBe(formatDateTime(iso));
    expect(formatDate(iso)).toMatch(/2025/);
  });
});
