import YAML, { Scalar, visit } from 'yaml';
import {
  escapeDollars,
  NO_REFERENCES,
  type VariableReferences,
  writeWithReferences,
} from './variableReferences.js';

/**
 * Writes the project file every Compose CLI reads the same way. Compose v1 reads YAML 1.1 (PyYAML), where plain
 * `no`, `on`, `y`, `12:30` (sexagesimal 750), `1_000`, `0755` (octal), `0x1F`, `.inf`, `~`, dates, `=` and `<<`
 * are not strings, and a plain tab is an error: the document is written as YAML 1.1, whose own resolvers quote such strings, and a second,
 * wider net quotes anything that merely looks like one. Every `$` in a value is doubled: interpolation already
 * happened when Slipway read the files, so Compose must find nothing left to expand but the references to the
 * workspace's variables (variableReferences.ts), whose values it takes from its environment.
 */
const LOOKS_TYPED = [
  /^(?:y|n|yes|no|true|false|on|off|null|~|=|<<|-|)$/i,
  /^[-+]?[0-9][0-9_:.,]*(?:e[-+]?[0-9]+)?$/i,
  /^[-+]?\.(?:inf|nan)$/i,
  /^0[box]/i,
  /^\d{4}-\d\d?-\d\d?/,
  // Tabs, line breaks and anything beyond printable ASCII: PyYAML refuses some of them in plain scalars.
  /[^\x20-\x7e]/,
];

export const looksTyped = (text: string) => LOOKS_TYPED.some((pattern) => pattern.test(text));

export const escapeCompose = escapeDollars;

export function stringifyCompose(
  config: Record<string, unknown>,
  references: VariableReferences = NO_REFERENCES,
): string {
  const write = (value: string) => writeWithReferences(value, references);
  // Without yaml's merge tag, a `<<` value is an ordinary string the net below quotes (PyYAML would merge it).
  const doc = new YAML.Document(config, {
    version: '1.1',
    customTags: (tags) =>
      tags.filter((tag) => typeof tag === 'string' || tag.tag !== 'tag:yaml.org,2002:merge'),
  });
  visit(doc, {
    Pair(_, pair) {
      if (pair.value instanceof Scalar && typeof pair.value.value === 'string') {
        pair.value.value = write(pair.value.value);
      }
    },
    Seq(_, seq) {
      for (const item of seq.items) {
        if (item instanceof Scalar && typeof item.value === 'string') item.value = write(item.value);
      }
    },
  });
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === 'string' && looksTyped(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return doc.toString({ lineWidth: 0, doubleQuotedAsJSON: true });
}
