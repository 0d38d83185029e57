import { invalid } from '../domain/errors.js';
import { type InputPart, inputName } from './inputSentences.js';

/**
 * Text the database cannot store: PostgreSQL refuses NUL in `text` and `jsonb`, and a lone UTF-16 surrogate
 * (a JSON `"\ud800"`) is no Unicode at all (`jsonb` refuses its escape). A refused value never reaches a
 * query: the sentence names the field, never the value.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function problemOf(text: string): string | undefined {
  if (text.includes('\u0000')) return 'holds a NUL character';
  if (LONE_SURROGATE.test(text)) return 'holds broken Unicode (a lone surrogate)';
  return undefined;
}

/** The first string or key in `value` that cannot be stored, with where it is; undefined when all can. */
function firstUnstorable(
  value: unknown,
  path: PropertyKey[],
): { path: PropertyKey[]; problem: string } | undefined {
  if (typeof value === 'string') {
    const problem = problemOf(value);
    return problem ? { path, problem } : undefined;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = firstUnstorable(item, [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = problemOf(key);
      if (keyProblem) return { path, problem: `has a field name that ${keyProblem}` };
      const found = firstUnstorable(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/** Throws a 400 in words when a part of a request's input holds text the database cannot store. */
export function refuseUnstorableText(part: InputPart, value: unknown) {
  const found = firstUnstorable(value, []);
  if (found) throw invalid(`${inputName(part, found.path)} ${found.problem}, which Slipway cannot store`);
}
