import path from 'node:path';
import { isValidRepoName } from '@slipway/contract';
import { invalid } from '../domain/errors.js';

const MAX_PATH_LENGTH = 1024;

/** Owner and repository names reach GitHub URLs and local directories, so they must be plain names. */
export function assertRepoNames(owner: string, repo: string): void {
  if (!isValidRepoName(owner)) {
    throw invalid('Invalid owner name: use up to 100 letters, digits, dots, dashes and underscores');
  }
  if (!isValidRepoName(repo)) {
    throw invalid('Invalid repository name: use up to 100 letters, digits, dots, dashes and underscores');
  }
}

/** Decodes until nothing changes, so `%252e%252e` is judged as the `..` it hides. */
function decodedForms(value: string): string[] {
  const forms = [value];
  let current = value;
  for (let round = 0; round < 3; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      break;
    }
    if (next === current) break;
    forms.push(next);
    current = next;
  }
  return forms;
}

function problemWith(form: string): string | undefined {
  if (form.includes('\u0000')) return 'The path contains a NUL character';
  if (form.includes('\\')) return 'The path contains a backslash; use / between folders';
  if (form.startsWith('/') || path.win32.isAbsolute(form))
    return 'The path must be relative to the repository';
  const segments = form.split('/');
  if (segments.some((segment) => segment === '..' || segment === '.')) {
    return "The path may not contain '.' or '..' segments";
  }
  return undefined;
}

/**
 * A path inside a repository from the URL (already decoded once by the router). Anything that could name
 * a file outside the repository, even after further decoding, is refused with a 400; '' is the root.
 */
export function normalizeContentsPath(raw: string | undefined): string {
  const value = (raw ?? '').replace(/\/+$/, '');
  if (value === '') return '';
  if (value.length > MAX_PATH_LENGTH) throw invalid('The path is too long');
  for (const form of decodedForms(value)) {
    const problem = problemWith(form);
    if (problem) throw invalid(problem);
  }
  const segments = value.split('/');
  if (segments.some((segment) => segment === '')) throw invalid('The path contains an empty folder name');
  // Belt and braces: the normalized path must stay below the repository root.
  const resolved = path.posix.resolve('/repo', value);
  if (!resolved.startsWith('/repo/')) throw invalid('The path must stay inside the repository');
  return value;
}
