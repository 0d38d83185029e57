import { scriptProblem } from './domainScripts.js';
import { shownValue } from './pathParams.js';

/**
 * Reading a custom domain as a person typed it: the name as DNS and certificates know it (lower case, no trailing
 * dot, an IDN in its ASCII form, WHATWG URL's IDNA mapping, the same in Node and browsers), or a sentence that
 * names what is wrong with it — too long, a label too long, an IP address, a single label, a character a domain
 * name cannot hold, letters of several scripts (domainScripts.ts) — each its own problem, not one hint for all.
 */
export type DomainReading = { domain: string } | { problem: string };

const MAX_NAME = 253;
const MAX_LABEL = 63;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const NUMERIC = /^(?:0x[0-9a-f]*|\d+)$/i;
const LABEL_CHARACTER = /^[a-z0-9-]$/;

/** RFC 3492 Punycode, decoded (an `xn--` label's part after the prefix); undefined when it does not decode. */
export function decodePunycode(input: string): string | undefined {
  const [base, tmin, tmax, skew, damp] = [36, 1, 26, 38, 700];
  const adapt = (delta: number, points: number, first: boolean) => {
    let d = first ? Math.floor(delta / damp) : delta >> 1;
    d += Math.floor(d / points);
    let k = 0;
    for (; d > ((base - tmin) * tmax) >> 1; k += base) d = Math.floor(d / (base - tmin));
    return k + Math.floor(((base - tmin + 1) * d) / (d + skew));
  };
  const digit = (code: number) =>
    code >= 48 && code < 58
      ? code - 22
      : code >= 65 && code < 91
        ? code - 65
        : code >= 97 && code < 123
          ? code - 97
          : base;
  const at = input.lastIndexOf('-');
  const output = [...(at > 0 ? input.slice(0, at) : '')].map((c) => c.codePointAt(0)!);
  if (output.some((code) => code >= 0x80)) return undefined;
  let [n, i, bias] = [0x80, 0, 72];
  for (let index = at > 0 ? at + 1 : 0; index < input.length; ) {
    const old = i;
    for (let w = 1, k = base; ; k += base) {
      if (index >= input.length) return undefined;
      const value = digit(input.charCodeAt(index++));
      if (value >= base || value > Math.floor((0x7fffffff - i) / w)) return undefined;
      i += value * w;
      const t = k <= bias ? tmin : k >= bias + tmax ? tmax : k - bias;
      if (value < t) break;
      if (w > Math.floor(0x7fffffff / (base - t))) return undefined;
      w *= base - t;
    }
    bias = adapt(i - old, output.length + 1, old === 0);
    n += Math.floor(i / (output.length + 1));
    if (n > 0x10ffff) return undefined;
    i %= output.length + 1;
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}

const endsInNumber = (typed: string) =>
  `${shownValue(typed)} ends in a number: a domain name ends in a top-level domain, like .com`;

/** A label as people read it: an `xn--` label decoded, any other as it is. */
const unicodeLabel = (label: string) =>
  label.startsWith('xn--') ? (decodePunycode(label.slice(4)) ?? label) : label;

function problemOfLabels(host: string, typed: string): string | undefined {
  const labels = host.split('.');
  if (labels.some((label) => label === '')) {
    return `${shownValue(typed)} has an empty label (two dots in a row, or a dot at its start): write it like shop.example.com`;
  }
  if (labels.length < 2) {
    return host === 'localhost'
      ? 'localhost is the name of this machine itself: a custom domain is a public DNS name, like shop.example.com'
      : `${shownValue(typed)} is a single label: a custom domain has a dot and a top-level domain, like shop.example.com`;
  }
  if (host.length > MAX_NAME) {
    const ascii = /(^|\.)xn--/.test(host) ? ' in its ASCII form' : '';
    return `This domain name is ${host.length} characters long${ascii}: a domain name is at most ${MAX_NAME}`;
  }
  for (const label of labels) {
    if (label.length > MAX_LABEL) {
      const ascii = label.startsWith('xn--') ? ' in its ASCII form' : '';
      return `The label "${unicodeLabel(label)}" is ${label.length} characters long${ascii}: each part of a domain name between dots is at most ${MAX_LABEL}`;
    }
    const bad = [...label].find((character) => !LABEL_CHARACTER.test(character));
    if (bad) {
      return `${shownValue(typed)} contains ${shownValue(bad)}, which a domain name cannot hold: use letters, digits and hyphens`;
    }
    if (label.startsWith('-') || label.endsWith('-')) {
      return `The label "${unicodeLabel(label)}" ${label.startsWith('-') ? 'starts' : 'ends'} with a hyphen: each part of a domain name starts and ends with a letter or a digit`;
    }
  }
  if (/^\d+$/.test(labels.at(-1)!)) return endsInNumber(typed);
  return undefined;
}

/** The name's problem as typed before the URL parser sees it (it would turn some into an address or refuse them). */
function problemAsTyped(typed: string): string | undefined {
  if (
    typed.startsWith('[') ||
    (typed.includes(':') && /^[0-9a-f:.[\]]+$/i.test(typed) && typed.split(':').length > 2)
  ) {
    return `${shownValue(typed)} is an IP address: a custom domain is a name, like shop.example.com`;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(typed) || /[/?#@\\]/.test(typed)) {
    return `${shownValue(typed)} is not a domain name: enter one like shop.example.com, without https:// or a path`;
  }
  if (/:\d*$/.test(typed))
    return `${shownValue(typed)} has a port: enter the name alone, like shop.example.com`;
  if (/\s/u.test(typed)) return `${shownValue(typed)} contains a space: a domain name has none`;
  if (typed.includes('*')) {
    return `${shownValue(typed)} is a wildcard: add each name on its own (a custom domain is one exact name)`;
  }
  const labels = typed.split('.');
  if (IPV4.test(typed) || (labels.length <= 4 && labels.every((label) => NUMERIC.test(label)))) {
    return `${shownValue(typed)} is an IP address: a custom domain is a name, like shop.example.com`;
  }
  // The URL parser reads a name whose last label is a number as an IPv4 address, and refuses it.
  if (NUMERIC.test(labels.at(-1)!)) return endsInNumber(typed);
  return undefined;
}

/**
 * The name read from what a person typed, or what is wrong with it (see DomainReading). `scripts: false` skips
 * the script rule, for a name already stored (one claimed before the rule can still be verified and removed).
 */
export function readDomainName(input: string, options: { scripts?: boolean } = {}): DomainReading {
  const typed = input.trim().replace(/\.$/, '');
  if (!typed) return { problem: 'Enter a domain name' };
  const early = problemAsTyped(typed);
  if (early) return { problem: early };
  let host: string;
  try {
    host = new URL(`http://${typed}/`).hostname.replace(/\.$/, '');
  } catch {
    const bad = [...typed].find((character) => !/[\p{L}\p{M}\p{N}.-]/u.test(character));
    return {
      problem: bad
        ? `${shownValue(typed)} contains ${shownValue(bad)}, which a domain name cannot hold: use letters, digits and hyphens`
        : `${shownValue(typed)} is not a valid internationalised domain name (one of its labels cannot be written in DNS): check its spelling`,
    };
  }
  if (IPV4.test(host) || host.startsWith('[')) {
    return {
      problem: `${shownValue(typed)} is an IP address: a custom domain is a name, like shop.example.com`,
    };
  }
  const shapeProblem = problemOfLabels(host, typed);
  if (shapeProblem) return { problem: shapeProblem };
  const labels = host.split('.');
  const readable = labels.map(unicodeLabel);
  const name = readable.join('.');
  for (const [index, label] of labels.entries()) {
    if (options.scripts === false || !label.startsWith('xn--')) continue;
    const problem = scriptProblem(readable[index]!, name, readable.at(-1)!);
    if (problem) return { problem };
  }
  return { domain: host };
}

/**
 * The name in its ASCII form, or undefined when it is not one a certificate can be issued for (an IP address, a
 * wildcard, a single label, a bad label, letters of several scripts).
 */
export function normaliseDomain(input: string): string | undefined {
  const reading = readDomainName(input);
  return 'domain' in reading ? reading.domain : undefined;
}

/**
 * How a stored name is shown to people: its Unicode form, unless that form is one readDomainName refuses (a name
 * stored before the script rule): then its ASCII form, which cannot pass for another name.
 */
export function unicodeDomain(ascii: string): string {
  const labels = ascii.split('.');
  const readable = labels.map(unicodeLabel);
  const name = readable.join('.');
  const confusable = labels.some(
    (label, index) => label.startsWith('xn--') && scriptProblem(readable[index]!, name, readable.at(-1)!),
  );
  return confusable ? ascii : name;
}
