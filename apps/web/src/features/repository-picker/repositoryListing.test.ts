import { describe, expect, it } from 'vitest';
import {
  countLine,
  FALLBACK_LANGUAGE_COLOUR,
  filterRepositories,
  languageColour,
  type PickerRepository,
  pageCount,
  pageSlice,
  pageWindow,
  sortByUpdated,
  truncateName,
  updatedText,
} from './repositoryListing';

const repo = (name: string, extra: Partial<PickerRepository> = {}): PickerRepository => ({
  id: name.length,
  name,
  owner: { login: 'me', avatar_url: '' },
  private: false,
  description: null,
  language: null,
  stargazers_count: 0,
  updated_at: '2025-01-01T00:00:00Z',
  ...extra,
});

describe('updatedText', () => {
  const now = new Date('2025-06-30T12:00:00Z');
  const ago = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
  it('follows the spec thresholds', () => {
    expect(updatedText(ago(1), now)).toBe('Updated yesterday');
    expect(updatedText(ago(1.5), now)).toBe('Updated yesterday');
    expect(updatedText(ago(2), now)).toBe('2 days ago');
    expect(updatedText(ago(6), now)).toBe('6 days ago');
    expect(updatedText(ago(7), now)).toBe('1 week ago');
    expect(updatedText(ago(29), now)).toBe('4 weeks ago');
    expect(updatedText(ago(30), now)).toBe('1 month ago');
    expect(updatedText(ago(31), now)).toBe('2 months ago');
    expect(updatedText(ago(400), now)).toBe('14 months ago');
  });
  it('handles today and unparsable dates', () => {
    expect(updatedText(ago(0.2), now)).toBe('Updated today');
    expect(updatedText('not a date', now)).toBe('');
  });
});

describe('pageWindow', () => {
  it('shows every page up to 7', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(3, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
  it('slides near the start, the middle and the end', () => {
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageWindow(4, 20)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageWindow(5, 20)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(pageWindow(10, 20)).toEqual([7, 8, 9, 10, 11, 12, 13]);
    expect(pageWindow(17, 20)).toEqual([14, 15, 16, 17, 18, 19, 20]);
    expect(pageWindow(20, 20)).toEqual([14, 15, 16, 17, 18, 19, 20]);
    expect(pageWindow(5, 8)).toEqual([2, 3, 4, 5, 6, 7, 8]);
  });
  it('counts pages of 12', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(12)).toBe(1);
    expect(pageCount(13)).toBe(2);
    expect(pageSlice([...Array(30).keys()], 3)).toEqual([24, 25, 26, 27, 28, 29]);
  });
});

describe('search and texts', () => {
  const repos = [
    repo('Alpha', { description: 'A web SHOP', language: 'TypeScript' }),
    repo('beta', { language: 'Go' }),
    repo('gamma', { description: null, language: null }),
  ];
  it('matches name, description and language case-insensitively', () => {
    expect(filterRepositories(repos, 'ALPHA').map((r) => r.name)).toEqual(['Alpha']);
    expect(filterRepositories(repos, 'shop').map((r) => r.name)).toEqual(['Alpha']);
    expect(filterRepositories(repos, 'go').map((r) => r.name)).toEqual(['beta']);
    expect(filterRepositories(repos, '  ')).toHaveLength(3);
  });
  it('writes the count line', () => {
    expect(countLine(3, '')).toBe('Showing 3 repositories');
    expect(countLine(1, ' go ')).toBe('Showing 1 repository matching "go"');
  });
  it('truncates names above 25 characters', () => {
    expect(truncateName('a'.repeat(25))).toBe('a'.repeat(25));
    expect(truncateName('a'.repeat(26))).toBe(`${'a'.repeat(25)}...`);
  });
  it('falls back to grey for unknown languages', () => {
    expect(languageColour('TypeScript')).toBe('#3178c6');
    expect(languageColour('Brainfuck')).toBe(FALLBACK_LANGUAGE_COLOUR);
    expect(languageColour(null)).toBe(FALLBACK_LANGUAGE_COLOUR);
  });
  it('sorts newest first', () => {
    const sorted = sortByUpdated([
      repo('old', { updated_at: '2020-01-01T00:00:00Z' }),
      repo('new', { updated_at: '2024-01-01T00:00:00Z' }),
    ]);
    expect(sorted.map((r) => r.name)).toEqual(['new', 'old']);
  });
});
