/**
 * The workspace's variables as Compose reads them: from its own process environment, never from a file.
 * Slipway reads a project with the variables interpolated (its checks must see what will run), so their values
 * sit in the model; when the model is written for Compose, each occurrence of a value is written as a reference,
 * `${SLIPWAY_VAR_KEY}`, and Compose puts the value back from the environment Slipway starts it with. Compose does
 * not interpolate a substituted value again, so a value holding `$` or a newline comes back as it was.
 */
export interface VariableReferences {
  /** Each value and the name it is referred to by, longest values first (a value inside another loses). */
  readonly byValue: readonly (readonly [value: string, name: string])[];
  /** What Compose's environment needs for every reference. */
  readonly environment: Readonly<Record<string, string>>;
}

/** The prefix keeps a variable from being taken for one of Compose's own (COMPOSE_*, DOCKER_HOST). */
export const referenceName = (key: string) => `SLIPWAY_VAR_${key}`;

export const NO_REFERENCES: VariableReferences = { byValue: [], environment: {} };

export function variableReferences(env: readonly { key: string; value: string }[]): VariableReferences {
  const byValue = new Map<string, string>();
  const environment: Record<string, string> = {};
  for (const { key, value } of env) {
    // An empty value hides nothing, and would match everywhere.
    if (value === '' || byValue.has(value)) continue;
    byValue.set(value, referenceName(key));
    environment[referenceName(key)] = value;
  }
  return {
    byValue: [...byValue].sort(([a], [b]) => b.length - a.length),
    environment,
  };
}

/**
 * A string for a Compose file: every `$` doubled (a literal dollar to Compose) except in the references put in
 * for the variables' values.
 */
export function writeWithReferences(text: string, references: VariableReferences): string {
  let out = '';
  let at = 0;
  while (at < text.length) {
    let found: { index: number; value: string; name: string } | undefined;
    for (const [value, name] of references.byValue) {
      const index = text.indexOf(value, at);
      // Longest first: at the same index a longer value wins because it is seen first.
      if (index !== -1 && (found === undefined || index < found.index)) found = { index, value, name };
    }
    if (!found) break;
    out += `${escapeDollars(text.slice(at, found.index))}\${${found.name}}`;
    at = found.index + found.value.length;
  }
  return out + escapeDollars(text.slice(at));
}

/** `$` is Compose's interpolation sigil; `$$` is a literal dollar. */
export const escapeDollars = (value: string) => value.replaceAll('$', () => '$$');
