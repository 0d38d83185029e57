/**
 * fast-check arbitraries for what an attacker or a careless script sends: NUL bytes and other control
 * characters, broken UTF-8 and bad percent-encoding, 5,000 characters, numbers past 2^31, lone surrogates,
 * confusable and wide Unicode, names that look like paths or options — beside values of the right shape, so
 * a run reaches the handlers as well as the schemas.
 */
import fc from 'fast-check';

const LONG = 5000;

/** Text a field or parameter may be sent as. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'a\u0000b',
      '\u0000',
      'x'.repeat(LONG),
      'é'.repeat(LONG / 2),
      '\ud800',
      'a\udc00b',
      'line\nbreak\r',
      '\u001b[31mred',
      '..',
      '.',
      '../../etc/passwd',
      '--upload-pack=touch /tmp/x',
      '$(id)',
      '<script>alert(1)</script>',
      "'; drop table users; --",
      'pаypal', // Cyrillic а
      '😀👍🏽',
      'ＡＢＣ',
      '\u202eevil',
      '',
      ' ',
      'null',
      '{}',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '2147483648',
      '3000000000',
      '9007199254740993',
      '-1',
      '0',
      '1e309',
      'NaN',
      '0x10',
      '1.5',
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9._-]{1,30}$/) },
  { weight: 1, arbitrary: fc.uuid() },
);

/** A number field's hostile values: past 2^31 and 2^53, negative, fractional, not finite in JSON's eyes. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(2 ** 31, 3_000_000_000, 2 ** 53 + 2, -1, 0, 1.5, 1e308, -1e308),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A string as UTF-8 percent-encoding (a lone surrogate as U+FFFD, as a client's encoder would send it). */
export function percentEncoded(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  }
}

/** Percent-encodings that are not UTF-8, or not percent-encodings at all. */
const brokenEncoding = fc.constantFrom(
  '%ff%fe',
  '%',
  '%zz',
  '%c0%80',
  '%ed%a0%80',
  '%e9',
  'a%00b',
  '%2e%2e',
  '..%2f..%2fadmin',
);

/** A path segment as it goes on the wire. */
export function pathSegment(plausible: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: hostileText.map(percentEncoded) },
    { weight: 1, arbitrary: brokenEncoding },
    { weight: 5, arbitrary: fc.constantFrom(...plausible).map(percentEncoded) },
  );
}

/** A query string (without `?`): known and unknown keys with hostile values, repeated keys, broken encodings. */
export function queryString(knownKeys: readonly string[]): fc.Arbitrary<string> {
  const key =
    knownKeys.length > 0 ? fc.oneof(fc.constantFrom(...knownKeys), fc.constant('x')) : fc.constant('x');
  const pair = fc.tuple(key, fc.oneof(hostileText.map(percentEncoded), brokenEncoding));
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    {
      weight: 4,
      arbitrary: fc
        .array(pair, { minLength: 1, maxLength: 3 })
        .map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('&')),
    },
    { weight: 1, arbitrary: brokenEncoding },
  );
}

/** Replaces leaves of a valid value with hostile ones, keeping its shape elsewhere. */
function mutate(value: unknown): fc.Arbitrary<unknown> {
  if (typeof value === 'string') return fc.oneof(fc.constant(value), hostileText);
  if (typeof value === 'number') return fc.oneof(fc.constant(value), hostileNumber);
  if (typeof value === 'boolean')
    return fc.oneof(fc.constant(value), fc.constantFrom<unknown>('true', 1, null));
  if (Array.isArray(value)) {
    return fc.oneof(
      fc.tuple(...value.map(mutate)),
      fc.constant(Array.from({ length: 300 }, () => value[0] ?? 'x')),
    );
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    return fc
      .tuple(...entries.map(([, item]) => mutate(item)), fc.option(hostileText, { nil: undefined }))
      .map((items) => {
        const mutated: Record<string, unknown> = Object.fromEntries(
          entries.map(([name], index) => [name, items[index]]),
        );
        const extra = items[entries.length];
        if (typeof extra === 'string') mutated[extra] = extra;
        return mutated;
      });
  }
  return fc.constant(value);
}

/** A request body as bytes, with the content type it is sent under (undefined: none). */
export interface WireBody {
  payload: Buffer | undefined;
  contentType: string | undefined;
}

const json = (value: unknown): WireBody => ({
  payload: Buffer.from(JSON.stringify(value) ?? 'null'),
  contentType: 'application/json',
});

/** Bodies for a route: its samples mutated, any JSON, and bytes that are no JSON at all. */
export function wireBody(samples: readonly unknown[]): fc.Arbitrary<WireBody> {
  const raw = fc.constantFrom<WireBody>(
    { payload: undefined, contentType: undefined },
    { payload: Buffer.from('{'), contentType: 'application/json' },
    { payload: Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), contentType: 'application/json' },
    { payload: Buffer.from('{"a":"\\ud800"}'), contentType: 'application/json' },
    { payload: Buffer.from('{"a\\u0000":1}'), contentType: 'application/json' },
    { payload: Buffer.from(`${'['.repeat(70)}${']'.repeat(70)}`), contentType: 'application/json' },
    { payload: Buffer.from('name=x'), contentType: 'application/x-www-form-urlencoded' },
    { payload: Buffer.from('hello'), contentType: 'text/plain' },
    { payload: Buffer.alloc(0), contentType: 'application/json' },
  );
  const arbitraries: fc.WeightedArbitrary<WireBody>[] = [
    { weight: 1, arbitrary: raw },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(json) },
    {
      weight: 1,
      arbitrary: fc.dictionary(hostileText, fc.oneof(hostileText, hostileNumber), { maxKeys: 4 }).map(json),
    },
  ];
  if (samples.length > 0) {
    // Mostly the route's own samples, some of their leaves made hostile: past the schemas into the handlers.
    arbitraries.push({
      weight: 3,
      arbitrary: fc
        .constantFrom(...samples)
        .chain(mutate)
        .map(json),
    });
    arbitraries.push({ weight: 2, arbitrary: fc.constantFrom(...samples).map(json) });
  }
  return fc.oneof(...arbitraries);
}
