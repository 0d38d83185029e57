/**
 * Counts and relative times in words, in one place: `Intl.PluralRules` picks the noun's form and
 * `Intl.RelativeTimeFormat` says how long ago something happened ('1 week ago', 'yesterday').
 * Every screen that shows 'N things' or 'N units ago' goes through here.
 */
const LOCALE = 'en-US';
const pluralRules = new Intl.PluralRules(LOCALE);
const relativeTime = new Intl.RelativeTimeFormat(LOCALE, { numeric: 'always' });

/** A noun's two English forms; the plural defaults to the singular plus 's'. */
export interface Noun {
  one: string;
  other?: string;
}

/** The noun's form for this count: 'repository' for 1, 'repositories' otherwise. */
export function pluralForm(count: number, noun: Noun): string {
  return pluralRules.select(count) === 'one' ? noun.one : (noun.other ?? `${noun.one}s`);
}

/** '1 repository', '0 repositories', '12 repositories'. */
export function countOf(count: number, noun: Noun): string {
  return `${count} ${pluralForm(count, noun)}`;
}

export const NOUNS = {
  repository: { one: 'repository', other: 'repositories' },
  branch: { one: 'branch', other: 'branches' },
  installation: { one: 'installation' },
  variable: { one: 'variable' },
  environmentVariable: { one: 'environment variable' },
  step: { one: 'step' },
  user: { one: 'user' },
  container: { one: 'container' },
  second: { one: 'second' },
  day: { one: 'day' },
  week: { one: 'week' },
  vcpu: { one: 'vCPU' },
  networkInterface: { one: 'network interface' },
} satisfies Record<string, Noun>;

/** '1 week ago', '3 days ago', '2 months ago' (English, through `Intl.RelativeTimeFormat`). */
export function timeAgo(amount: number, unit: Intl.RelativeTimeFormatUnit): string {
  return relativeTime.format(-amount, unit);
}
