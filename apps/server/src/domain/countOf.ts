const pluralRules = new Intl.PluralRules('en-US');

/** '1 table', '0 tables', '40 bytes': the noun's form chosen by `Intl.PluralRules` (English, as the web's). */
export function countOf(count: number, one: string, other = `${one}s`): string {
  return `${count} ${pluralRules.select(count) === 'one' ? one : other}`;
}
