import { describe, expect, it } from 'vitest';
import { countOf, NOUNS, timeAgo } from './plural';

describe('plural', () => {
  it('picks the singular for one and the plural otherwise', () => {
    expect(countOf(0, NOUNS.repository)).toBe('0 repositories');
    expect(countOf(1, NOUNS.repository)).toBe('1 repository');
    expect(countOf(12, NOUNS.repository)).toBe('12 repositories');
    expect(countOf(1, NOUNS.variable)).toBe('1 variable');
    expect(countOf(2, NOUNS.environmentVariable)).toBe('2 environment variables');
  });

  it('says how long ago with a number', () => {
    expect(timeAgo(1, 'week')).toBe('1 week ago');
    expect(timeAgo(3, 'week')).toBe('3 weeks ago');
    expect(timeAgo(1, 'month')).toBe('1 month ago');
    expect(timeAgo(2, 'day')).toBe('2 days ago');
  });
});
