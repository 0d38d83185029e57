/** The .env rules of the spec, shared by file upload and multi-line paste. */

export interface EnvPair {
  key: string;
  value: string;
}

/** Removes one leading and one trailing quote (single or double), each independently. */
function unquote(value: string): string {
  let result = value;
  if (result.startsWith('"') || result.startsWith("'")) result = result.slice(1);
  if (result.endsWith('"') || result.endsWith("'")) result = result.slice(0, -1);
  return result;
}

/**
 * Split lines, trim, skip blanks and lines starting with '#', require '=', split on the first
 * '='; the key is trimmed and must be non-empty; the value is trimmed and loses one leading
 * and one trailing quote.
 */
export function parseEnvText(text: string): EnvPair[] {
  const pairs: EnvPair[] = [];
  for (const rawLine of text.split(/\r?\n|\r/)) {
    const line = rawLine.trim();
    if (!line || line.startsWith('#')) continue;
    const equals = line.indexOf('=');
    if (equals === -1) continue;
    const key = line.slice(0, equals).trim();
    if (!key) continue;
    pairs.push({ key, value: unquote(line.slice(equals + 1).trim()) });
  }
  return pairs;
}

/** Pasted text is treated as .env content when it spans lines and some line has '='. */
export function looksLikeEnvPaste(text: string): boolean {
  const lines = text.split(/\r?\n|\r/);
  return lines.length > 1 && lines.some((line) => line.includes('='));
}

/** The pairs of pasted text that is .env content and holds any; null for an ordinary paste. */
export function envPaste(text: string): EnvPair[] | null {
  if (!looksLikeEnvPaste(text)) return null;
  const pairs = parseEnvText(text);
  return pairs.length > 0 ? pairs : null;
}

/** A row counts when its key and its value, trimmed, are both non-empty. */
export function isCompletePair(pair: EnvPair): boolean {
  return pair.key.trim() !== '' && pair.value.trim() !== '';
}

/** The variables to send from editor rows: the complete ones, key trimmed, value as typed. */
export function completePairs(rows: readonly EnvPair[]): EnvPair[] {
  return rows.filter(isCompletePair).map((row) => ({ key: row.key.trim(), value: row.value }));
}

/** Only .env or .txt files are accepted (a file named exactly '.env' included). */
export function isAcceptedEnvFile(fileName: string): boolean {
  const lower = fileName.toLowerCase();
  return lower === '.env' || lower.endsWith('.env') || lower.endsWith('.txt');
}
