/**
 * Compose's variable interpolation, as the Compose Specification defines it: `$VAR`, `${VAR}`, `${VAR:-x}`,
 * `${VAR-x}`, `${VAR:?msg}`, `${VAR?msg}`, `${VAR:+x}`, `${VAR+x}` (defaults may nest), `$$` for a literal `$`.
 * Applied to every string value of a file (never to keys), before anything else reads it. The result is literal
 * text: the writer escapes every `$` again so Compose itself interpolates nothing.
 */
export class ComposeReadError extends Error {
  override name = 'ComposeReadError';
}

type Env = Readonly<Record<string, string>>;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/** The index of the `}` closing the `${` that starts at `open` (braces inside defaults nest). */
function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let at = open; at < text.length; at++) {
    const char = text[at];
    if (char === '$' && text[at + 1] === '$') at++;
    else if (char === '$' && text[at + 1] === '{') {
      depth++;
      at++;
    } else if (char === '}' && --depth === 0) return at;
  }
  return -1;
}

function substitute(inner: string, env: Env, where: string, whole: string): string {
  const name = NAME.exec(inner)?.[0];
  if (!name) throw new ComposeReadError(`Invalid interpolation format for ${where}: "${whole}"`);
  const rest = inner.slice(name.length);
  const value = env[name];
  if (rest === '') return value ?? '';
  const operator = /^(:?[-?+])/.exec(rest)?.[1];
  if (!operator) throw new ComposeReadError(`Invalid interpolation format for ${where}: "${whole}"`);
  const argument = () => interpolateString(rest.slice(operator.length), env, where);
  const unset = operator.startsWith(':') ? value === undefined || value === '' : value === undefined;
  switch (operator.replace(':', '')) {
    case '-':
      return unset ? argument() : value!;
    case '+':
      return unset ? '' : argument();
    default: {
      if (!unset) return value!;
      const message = argument();
      throw new ComposeReadError(
        `Required variable ${name} is missing a value${message ? `: ${message}` : ''} (${where})`,
      );
    }
  }
}

export function interpolateString(text: string, env: Env, where: string): string {
  if (!text.includes('$')) return text;
  let out = '';
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (char !== '$') {
      out += char;
      continue;
    }
    const next = text[at + 1];
    if (next === '$') {
      out += '$';
      at++;
    } else if (next === '{') {
      const close = closingBrace(text, at);
      if (close === -1) throw new ComposeReadError(`Invalid interpolation format for ${where}: "${text}"`);
      out += substitute(text.slice(at + 2, close), env, where, text);
      at = close;
    } else {
      const name = NAME.exec(text.slice(at + 1))?.[0];
      if (name) {
        out += env[name] ?? '';
        at += name.length;
      } else out += '$';
    }
  }
  return out;
}

/** Interpolates every string value of a parsed file; `where` names the key path in errors. */
export function interpolateTree(value: unknown, env: Env, where = ''): unknown {
  if (typeof value === 'string') return interpolateString(value, env, where || 'the file');
  if (Array.isArray(value)) return value.map((item, i) => interpolateTree(item, env, `${where}[${i}]`));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = interpolateTree(item, env, where ? `${where}.${key}` : key);
    }
    return out;
  }
  return value;
}
