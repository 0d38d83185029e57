/**
 * Which letters a label of a domain name may mix: UTS #39's "highly restrictive" level (§5.2), the one Chromium
 * holds a name to before it shows it in Unicode, and Chromium's whole-script rule for Cyrillic look-alikes of Latin.
 * Scripts come from the JavaScript engine's own Unicode data (`\p{Script_Extensions=…}`), in Node and browsers.
 *
 * - Every character is a letter, mark or digit (or a hyphen) of a script UTS #31 recommends for identifiers
 *   (Table 5): Cherokee, Runic and the like, which hold look-alikes of Latin letters, are refused.
 * - A label is single-script (the intersection of its characters' augmented script sets is not empty: Common and
 *   Inherited characters go with any script), or Latin with the scripts of one of Japanese, Chinese (Bopomofo)
 *   or Korean writing. `pаypal` (a Cyrillic а among Latin letters) is neither.
 * - A label all in Cyrillic letters that look like Latin ones (`аре`, `сосо`) passes for a Latin name: refused
 *   unless the top-level domain is Cyrillic or of a country that writes in Cyrillic.
 * - Digits of one numbering system only (ASCII digits beside Arabic-Indic ones are a known trick).
 */

/** UTS #31 Table 5, Recommended scripts (Common and Inherited go with any of them). */
const RECOMMENDED = [
  'Arabic',
  'Armenian',
  'Bengali',
  'Bopomofo',
  'Cyrillic',
  'Devanagari',
  'Ethiopic',
  'Georgian',
  'Greek',
  'Gujarati',
  'Gurmukhi',
  'Han',
  'Hangul',
  'Hebrew',
  'Hiragana',
  'Kannada',
  'Katakana',
  'Khmer',
  'Lao',
  'Latin',
  'Malayalam',
  'Myanmar',
  'Oriya',
  'Sinhala',
  'Tamil',
  'Telugu',
  'Thaana',
  'Thai',
  'Tibetan',
] as const;
type Script = (typeof RECOMMENDED)[number];

const EXTENSIONS = RECOMMENDED.map(
  (script) => [script, new RegExp(`^\\p{Script_Extensions=${script}}$`, 'u')] as const,
);
const PRIMARY = RECOMMENDED.map((script) => [script, new RegExp(`^\\p{Script=${script}}$`, 'u')] as const);
const ANY_SCRIPT = /^[\p{Script_Extensions=Common}\p{Script_Extensions=Inherited}]$/u;
const ALLOWED_CHARACTER = /^[\p{L}\p{M}\p{Nd}-]$/u;

/** UTS #39's augmented sets: Han is also written in Japanese (Jpan), Chinese (Hanb) and Korean (Kore). */
const AUGMENTED: Partial<Record<Script, string[]>> = {
  Han: ['Hanb', 'Jpan', 'Kore'],
  Hiragana: ['Jpan'],
  Katakana: ['Jpan'],
  Hangul: ['Kore'],
  Bopomofo: ['Hanb'],
};

/** The augmented script set of one character; 'any' for Common and Inherited; empty outside the recommended. */
function scriptSet(character: string): Set<string> | 'any' {
  const scripts = EXTENSIONS.filter(([, pattern]) => pattern.test(character)).map(([script]) => script);
  if (scripts.length === 0 && ANY_SCRIPT.test(character)) return 'any';
  return new Set(scripts.flatMap((script) => [script, ...(AUGMENTED[script] ?? [])]));
}

/** The script a character is written in, as a person would name it. */
const scriptName = (character: string) =>
  PRIMARY.find(([, pattern]) => pattern.test(character))?.[0] ??
  EXTENSIONS.find(([, pattern]) => pattern.test(character))?.[0] ??
  'another script';

function intersect(sets: Set<string>[]): Set<string> {
  const [first, ...rest] = sets;
  if (!first) return new Set(['any']);
  return new Set([...first].filter((script) => rest.every((set) => set.has(script))));
}

/** Cyrillic letters that look like Latin ones (Chromium's list), with the Latin letter each passes for. */
const LATIN_LOOKALIKES: Record<string, string> = {
  а: 'a',
  с: 'c',
  ԁ: 'd',
  е: 'e',
  һ: 'h',
  і: 'i',
  ј: 'j',
  ӏ: 'l',
  о: 'o',
  р: 'p',
  ԛ: 'q',
  ѕ: 's',
  ԝ: 'w',
  х: 'x',
  у: 'y',
  ъ: 'b',
  ь: 'b',
  ҽ: 'e',
  п: 'n',
  г: 'r',
  ѵ: 'v',
  ѡ: 'w',
};
/** Top-level domains under which an all-Cyrillic name is expected (Chromium's list, and any Cyrillic one). */
const CYRILLIC_TLDS = new Set(['bg', 'by', 'kz', 'mk', 'mn', 'ru', 'su', 'ua', 'uz']);

/** Why `label` (Unicode) of `name` is refused, in a sentence; undefined when it passes. */
export function scriptProblem(label: string, name: string, tld: string): string | undefined {
  const characters = [...label];
  const strange = characters.find((character) => !ALLOWED_CHARACTER.test(character));
  if (strange) {
    return `${name} contains "${strange}", which is not a letter or a digit: a domain name holds letters, digits and hyphens`;
  }
  const sets = characters.map(scriptSet).filter((set): set is Set<string> => set !== 'any');
  const rare = characters.find((character) => {
    const set = scriptSet(character);
    return set !== 'any' && set.size === 0;
  });
  if (rare) {
    return `${name} contains "${rare}", a letter of a script not used for domain names (it can pass for a Latin one): write it in a script such as Latin, Cyrillic, Greek, Arabic or Han`;
  }
  const single = intersect(sets).size > 0;
  const besideLatin = intersect(sets.filter((set) => !set.has('Latin')));
  const eastAsian = ['Jpan', 'Hanb', 'Kore'].some((script) => besideLatin.has(script));
  if (!single && !eastAsian) {
    const first = characters.find((character) => scriptSet(character) !== 'any')!;
    const firstScript = scriptName(first);
    const other = characters.find((character) => {
      const set = scriptSet(character);
      return set !== 'any' && !set.has(firstScript);
    })!;
    return `${name} mixes ${firstScript} and ${scriptName(other)} letters in "${label}" ("${other}" is ${scriptName(other)}), as names made to pass for others do: write each part of the name in one script`;
  }
  const letters = characters.filter((character) => /\p{L}/u.test(character));
  const cyrillicTld = CYRILLIC_TLDS.has(tld) || /\p{Script=Cyrillic}/u.test(tld);
  if (letters.length > 0 && letters.every((letter) => letter in LATIN_LOOKALIKES) && !cyrillicTld) {
    const reads = characters.map((character) => LATIN_LOOKALIKES[character] ?? character).join('');
    return `${name} is written in Cyrillic letters that all look like Latin ones ("${label}" reads as "${reads}"), as names made to pass for others do: such a name is taken only under a Cyrillic top-level domain`;
  }
  const digits = characters.filter((character) => /\p{Nd}/u.test(character));
  if (digits.some((digit) => /[0-9]/.test(digit)) && digits.some((digit) => !/[0-9]/.test(digit))) {
    return `${name} mixes digits of two numbering systems in "${label}": write its digits in one`;
  }
  return undefined;
}
