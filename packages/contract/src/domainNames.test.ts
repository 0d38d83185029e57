import { domainToASCII, domainToUnicode } from 'node:url';
import { describe, expect, it } from 'vitest';
import { addDomainSchema, domainParamsSchema } from './customDomains.js';
import { decodePunycode, normaliseDomain, readDomainName, unicodeDomain } from './domainNames.js';

const problem = (typed: string) => {
  const reading = readDomainName(typed);
  return 'problem' in reading ? reading.problem : `accepted as ${reading.domain}`;
};
const MIXED = 'as names made to pass for others do: write each part of the name in one script';

/** Issue 39: each bad name's sentence names its own problem, and look-alike names are refused. */
describe('reading a custom domain', () => {
  it('reads names, IDNs in both forms, as DNS knows them', () => {
    expect(readDomainName(' Shop.Example.COM. ')).toEqual({ domain: 'shop.example.com' });
    expect(readDomainName('Bücher.Example')).toEqual({ domain: 'xn--bcher-kva.example' });
    expect(unicodeDomain('xn--bcher-kva.example')).toBe('bücher.example');
  });

  it('names the real problem of each bad name', () => {
    const labels = (count: number) => `${Array.from({ length: count }, () => 'a'.repeat(63)).join('.')}.com`;
    const cases: [string, string][] = [
      ['', 'Enter a domain name'],
      [labels(4).slice(0, 254), 'This domain name is 254 characters long: a domain name is at most 253'],
      [labels(5).slice(0, 300), 'This domain name is 300 characters long: a domain name is at most 253'],
      [
        `${'a'.repeat(64)}.com`,
        `The label "${'a'.repeat(64)}" is 64 characters long: each part of a domain name between dots is at most 63`,
      ],
      [
        `${'ü'.repeat(60)}.com`,
        `The label "${'ü'.repeat(60)}" is 66 characters long in its ASCII form: each part of a domain name between dots is at most 63`,
      ],
      ['203.0.113.10', '"203.0.113.10" is an IP address: a custom domain is a name, like shop.example.com'],
      ['1.2.3', '"1.2.3" is an IP address: a custom domain is a name, like shop.example.com'],
      ['0x7f.1', '"0x7f.1" is an IP address: a custom domain is a name, like shop.example.com'],
      ['[2001:db8::1]', '"[2001:db8::1]" is an IP address: a custom domain is a name, like shop.example.com'],
      ['2001:db8::1', '"2001:db8::1" is an IP address: a custom domain is a name, like shop.example.com'],
      [
        'localhost',
        'localhost is the name of this machine itself: a custom domain is a public DNS name, like shop.example.com',
      ],
      [
        'intranet',
        '"intranet" is a single label: a custom domain has a dot and a top-level domain, like shop.example.com',
      ],
      [
        'sh_op.example.com',
        '"sh_op.example.com" contains "_", which a domain name cannot hold: use letters, digits and hyphens',
      ],
      [
        'exa%mple.com',
        '"exa%mple.com" contains "%", which a domain name cannot hold: use letters, digits and hyphens',
      ],
      [
        '☃.example',
        '☃.example contains "☃", which is not a letter or a digit: a domain name holds letters, digits and hyphens',
      ],
      ['shop example.com', '"shop example.com" contains a space: a domain name has none'],
      [
        'https://shop.example.com/cart',
        '"https://shop.example.com/cart" is not a domain name: enter one like shop.example.com, without https:// or a path',
      ],
      [
        'shop.example.com:8443',
        '"shop.example.com:8443" has a port: enter the name alone, like shop.example.com',
      ],
      [
        '*.example.com',
        '"*.example.com" is a wildcard: add each name on its own (a custom domain is one exact name)',
      ],
      [
        'a..example.com',
        '"a..example.com" has an empty label (two dots in a row, or a dot at its start): write it like shop.example.com',
      ],
      [
        '-shop.example.com',
        'The label "-shop" starts with a hyphen: each part of a domain name starts and ends with a letter or a digit',
      ],
      ['shop.123', '"shop.123" ends in a number: a domain name ends in a top-level domain, like .com'],
    ];
    for (const [typed, sentence] of cases) expect([typed, problem(typed)]).toEqual([typed, sentence]);
    const longest = `${labels(3)}`.replace(/\.com$/, `.${'a'.repeat(57)}.com`);
    expect(longest).toHaveLength(253);
    expect(readDomainName(longest)).toEqual({ domain: longest });
  });

  it('refuses labels mixing scripts (UTS #39 highly restrictive), typed in Unicode or in punycode', () => {
    expect(problem('pаypal.com')).toBe(
      `pаypal.com mixes Latin and Cyrillic letters in "pаypal" ("а" is Cyrillic), ${MIXED}`,
    );
    expect(problem('xn--pypal-4ve.com')).toBe(problem('pаypal.com'));
    expect(problem('shop.exаmple.com')).toBe(
      `shop.exаmple.com mixes Latin and Cyrillic letters in "exаmple" ("а" is Cyrillic), ${MIXED}`,
    );
    expect(problem('pαypal.com')).toBe(
      `pαypal.com mixes Latin and Greek letters in "pαypal" ("α" is Greek), ${MIXED}`,
    );
    expect(problem('ΡΑΥΡΑL.com')).toContain('mixes Greek and Latin letters');
    // A script that is not for identifiers (Cherokee has many Latin look-alikes).
    expect(problem('ᏴᎡᎪ.com')).toContain('a letter of a script not used for domain names');
    // Chromium's whole-script rule: Cyrillic letters that all look like Latin ones, under a Latin TLD.
    expect(problem('аррӏе.com')).toBe(
      'аррӏе.com is written in Cyrillic letters that all look like Latin ones ("аррӏе" reads as "apple"), as names made to pass for others do: such a name is taken only under a Cyrillic top-level domain',
    );
  });

  it('accepts single-script names and Latin beside Japanese, Chinese or Korean writing', () => {
    for (const name of [
      'bücher.example',
      'пример.рф',
      'сайт.com',
      'аррӏе.ru',
      'παράδειγμα.gr',
      'مثال.com',
      '東京.jp',
      '日本語テスト.jp',
      'abc漢字.jp',
      'shopのサイト.jp',
      '한국어.kr',
      'abc한국.kr',
      'abcㄅ漢.tw',
      'éxample.com',
      'shop-24.example.com',
    ]) {
      expect([name, problem(name)]).toEqual([name, `accepted as ${domainToASCII(name)}`]);
    }
  });

  it('shows a stored look-alike name in its ASCII form, and keeps it reachable in paths', () => {
    expect(unicodeDomain('xn--pypal-4ve.com')).toBe('xn--pypal-4ve.com');
    expect(unicodeDomain('xn--e1afmkfd.xn--p1ai')).toBe('пример.рф');
    expect(normaliseDomain('xn--pypal-4ve.com')).toBeUndefined();
    expect(domainParamsSchema.parse({ name: 'shop', domain: 'xn--pypal-4ve.com' }).domain).toBe(
      'xn--pypal-4ve.com',
    );
    const added = addDomainSchema.safeParse({ domain: 'pаypal.com', service: 'web' });
    expect(added.success || added.error.issues[0]!.message).toContain('mixes Latin and Cyrillic');
  });

  it('decodes punycode as Node does', () => {
    for (const name of ['bücher', 'пример', '日本語テスト', 'مثال', 'παράδειγμα', 'pаypal', 'a-b-ü', '😀x']) {
      const ascii = domainToASCII(`${name}.example`).split('.')[0]!;
      expect(decodePunycode(ascii.slice(4))).toBe(domainToUnicode(ascii));
    }
    expect(decodePunycode('bü')).toBeUndefined();
    expect(decodePunycode('99999999999')).toBeUndefined();
  });
});
