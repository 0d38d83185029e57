import { describe, expect, it } from 'vitest';
import { detectLanguage } from './languageDetection.js';
import { assertRepoNames, normalizeContentsPath } from './repositoryInput.js';

describe('contents paths', () => {
  it('accepts paths inside the repository', () => {
    expect(normalizeContentsPath(undefined)).toBe('');
    expect(normalizeContentsPath('')).toBe('');
    expect(normalizeContentsPath('src/index.ts')).toBe('src/index.ts');
    expect(normalizeContentsPath('docs/')).toBe('docs');
    expect(normalizeContentsPath('weird name (1).txt')).toBe('weird name (1).txt');
    expect(normalizeContentsPath('a..b/c...d')).toBe('a..b/c...d');
  });

  it.each([
    ['../../etc/passwd', /'\.' or '\.\.'/],
    ['src/../../x', /'\.' or '\.\.'/],
    ['./x', /'\.' or '\.\.'/],
    ['%2e%2e/x', /'\.' or '\.\.'/],
    ['%252e%252e%252fx', /'\.' or '\.\.'/],
    ['..%2fx', /'\.' or '\.\.'/],
    ['/etc/passwd', /relative/],
    ['%2Fetc%2Fpasswd', /relative/],
    ['C:\\Windows', /backslash/],
    ['a\\..\\b', /backslash/],
    ['a%5c..', /backslash/],
    ['a\u0000b', /NUL/],
    ['a%00b', /NUL/],
    ['a//b', /empty folder/],
    ['x'.repeat(1025), /too long/],
  ])('refuses %j', (value, message) => {
    expect(() => normalizeContentsPath(value)).toThrow(message);
  });
});

describe('repository names', () => {
  it.each([
    ['..', 'x'],
    ['.', 'x'],
    ['a/b', 'x'],
    ['a', '-x y'],
    ['a', ''],
    ['a', 'x'.repeat(101)],
  ])('refuses %j/%j', (owner, repo) => {
    expect(() => assertRepoNames(owner, repo)).toThrow(/Invalid (owner|repository) name/);
  });

  it('accepts GitHub-style names', () => {
    expect(() => assertRepoNames('my-org', 'my.repo_2')).not.toThrow();
    expect(() => assertRepoNames('a', '-leading-dash')).not.toThrow();
  });
});

describe('language detection', () => {
  it('picks the most common known language, ignoring vendored folders', () => {
    expect(detectLanguage(['a.ts', 'b.tsx', 'c.js', 'Dockerfile'])).toBe('TypeScript');
    expect(detectLanguage(['main.go', 'node_modules/x/a.js', 'node_modules/x/b.js'])).toBe('Go');
    expect(detectLanguage(['app.py', 'templates/a.html', 'templates/b.html'])).toBe('Python');
  });

  it('falls back to Dockerfile or markup only when nothing else is there, else null', () => {
    expect(detectLanguage(['Dockerfile', 'docker-compose.yml'])).toBe('Dockerfile');
    expect(detectLanguage(['index.html', 'style.css', 'a.html'])).toBe('HTML');
    expect(detectLanguage(['README.md', 'data.json'])).toBeNull();
  });
});
