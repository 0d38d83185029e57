/** Compose's value syntaxes, read the way Compose reads them, for the Swarm translation. */

const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** A Compose duration (`1m30s`, `500ms`, `10`: seconds) in nanoseconds, or undefined when it is not one. */
export function durationNs(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return Math.round(value * 1e9);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1e9);
  let total = 0;
  let rest = text;
  while (rest.length > 0) {
    const match = /^(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/.exec(rest);
    if (!match) return undefined;
    total += Number(match[1]) * UNIT_NS[match[2]!]!;
    rest = rest.slice(match[0].length);
  }
  return text.length > 0 ? Math.round(total) : undefined;
}

/** A Compose byte size (`64m`, `1g`, `512k`, a number of bytes) in bytes, or undefined. */
export function byteSize(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return Math.floor(value);
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*([bkmg]?)b?$/i.exec(value.trim());
  if (!match) return undefined;
  const power = { '': 0, b: 0, k: 1, m: 2, g: 3 }[match[2]!.toLowerCase()] ?? 0;
  return Math.floor(Number(match[1]) * 1024 ** power);
}

/**
 * A command written as one string split into words as Compose splits it (POSIX shell quoting: single and double
 * quotes, backslashes; no expansion). Undefined for an unterminated quote.
 */
export function shellWords(text: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && i + 1 < text.length && '"\\$`\n'.includes(text[i + 1]!)) word += text[++i];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote) return undefined;
  if (inWord) words.push(word);
  return words;
}

/** A command (`command`, `entrypoint`, a health check's `test`) as a list of words, or undefined. */
export function commandWords(value: unknown): string[] | undefined {
  if (typeof value === 'string') return shellWords(value);
  if (Array.isArray(value)) return value.map(String);
  return undefined;
}
