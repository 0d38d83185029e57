import type { Repository } from '@slipway/contract';
import { countOf, NOUNS, timeAgo } from '../../lib/plural';
/** Pure rules of the repository picker: search, count line, paging window, card texts. */

/** The fields of the contract's repository (GET /api/github/repos) the picker reads. */
export type PickerRepository = Pick<
  Repository,
  'id' | 'name' | 'owner' | 'private' | 'description' | 'language' | 'stargazers_count' | 'updated_at'
>;

export const PAGE_SIZE = 12;
export const MAX_PAGE_BUTTONS = 7;
export const NAME_MAX_LENGTH = 25;

/** Newest `updated_at` first. */
export function sortByUpdated<T extends { updated_at: string }>(repos: readonly T[]): T[] {
  return [...repos].sort((a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at));
}

/** Case-insensitive match over name, description and language. */
export function filterRepositories<T extends PickerRepository>(repos: readonly T[], term: string): T[] {
  const needle = term.trim().toLowerCase();
  if (!needle) return [...repos];
  return repos.filter((repo) =>
    [repo.name, repo.description, repo.language].some((field) => field?.toLowerCase().includes(needle)),
  );
}

export function countLine(count: number, term: string): string {
  const trimmed = term.trim();
  const shown = `Showing ${countOf(count, NOUNS.repository)}`;
  return trimmed ? `${shown} matching "${trimmed}"` : shown;
}

export function pageCount(total: number, pageSize = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

export function pageSlice<T>(items: readonly T[], page: number, pageSize = PAGE_SIZE): T[] {
  return items.slice((page - 1) * pageSize, page * pageSize);
}

/**
 * The page numbers to show as buttons: all of them up to 7; otherwise a window of 7 that stays
 * at 1–7 near the start, at the last 7 near the end, and is centred on the current page between.
 */
export function pageWindow(current: number, total: number, maxButtons = MAX_PAGE_BUTTONS): number[] {
  if (total <= maxButtons) return Array.from({ length: total }, (_, i) => i + 1);
  const half = Math.floor(maxButtons / 2);
  let start = current - half;
  if (start < 1) start = 1;
  if (start + maxButtons - 1 > total) start = total - maxButtons + 1;
  return Array.from({ length: maxButtons }, (_, i) => start + i);
}

/** Names above 25 characters keep their first 25 and end with an ellipsis. */
export function truncateName(name: string, max = NAME_MAX_LENGTH): string {
  return name.length > max ? `${name.slice(0, max)}...` : name;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * 'Updated yesterday' for 1 day, 'N days ago' under 7 days, 'N weeks ago' under 30 days,
 * otherwise 'N months ago' rounded up. Less than a day reads 'Updated today'.
 */
export function updatedText(updatedAt: string, now: Date = new Date()): string {
  const days = Math.floor((now.getTime() - Date.parse(updatedAt)) / DAY_MS);
  if (!Number.isFinite(days)) return '';
  if (days <= 0) return 'Updated today';
  if (days === 1) return 'Updated yesterday';
  if (days < 7) return timeAgo(days, 'day');
  if (days < 30) return timeAgo(Math.floor(days / 7), 'week');
  return timeAgo(Math.ceil(days / 30), 'month');
}

const LANGUAGE_COLOURS: Record<string, string> = {
  JavaScript: '#f1e05a',
  TypeScript: '#3178c6',
  Python: '#3572A5',
  Java: '#b07219',
  Go: '#00ADD8',
  Rust: '#dea584',
  Ruby: '#701516',
  PHP: '#4F5D95',
  'C#': '#178600',
  'C++': '#f34b7d',
  C: '#555555',
  Shell: '#89e051',
  Dockerfile: '#384d54',
  HTML: '#e34c26',
  CSS: '#563d7c',
  Kotlin: '#A97BFF',
  Swift: '#F05138',
  Dart: '#00B4AB',
  Elixir: '#6e4a7e',
  Vue: '#41b883',
  Svelte: '#ff3e00',
  Scala: '#c22d40',
  Haskell: '#5e5086',
  Lua: '#000080',
};
export const FALLBACK_LANGUAGE_COLOUR = '#9ca3af';

export function languageColour(language: string | null | undefined): string {
  return (language && LANGUAGE_COLOURS[language]) || FALLBACK_LANGUAGE_COLOUR;
}
