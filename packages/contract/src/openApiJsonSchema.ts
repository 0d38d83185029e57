import { z } from 'zod';
import type { JsonSchema } from './openApiDocument.js';

/** Where the document keeps named schemas: `#/components/schemas/{name}`. */
export type SchemaComponents = Record<string, JsonSchema>;

const COMPONENT_REF = '#/components/schemas/';

/**
 * A zod schema as a JSON Schema for the document: what a caller sends (`input`: before transforms and
 * defaults, so a defaulted field is optional) or what the server answers (`output`). A type JSON Schema
 * cannot express (a transform's result, a date, a custom check) becomes `{}` (any value) instead of failing
 * the whole document.
 *
 * z.toJSONSchema writes a recursive schema with references inside it (`#` for its root, `#/$defs/…`); in
 * an OpenAPI document `#` is the document itself, so such a schema moves to the components, named
 * `{name}` (its root) and `{name}_{def}`, and the operation points at it.
 */
export function jsonSchemaOf(
  schema: z.ZodType,
  io: 'input' | 'output',
  name: string,
  components: SchemaComponents,
): JsonSchema {
  const {
    $schema: _dialect,
    $defs,
    ...root
  } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema & {
    $defs?: Record<string, JsonSchema>;
  };
  if (!JSON.stringify(root).includes('"$ref"')) return root;
  const componentName = (def?: string) => (def ? `${name}_${def}` : name).replace(/[^A-Za-z0-9._-]/g, '_');
  const rebase = (ref: string) => {
    if (ref === '#') return `${COMPONENT_REF}${componentName()}`;
    if (ref.startsWith('#/$defs/')) return `${COMPONENT_REF}${componentName(ref.slice('#/$defs/'.length))}`;
    return ref;
  };
  components[componentName()] = rewriteRefs(root, rebase);
  for (const [def, definition] of Object.entries($defs ?? {})) {
    components[componentName(def)] = rewriteRefs(definition, rebase);
  }
  return { $ref: `${COMPONENT_REF}${componentName()}` };
}

/** A copy of `value` with every `$ref` string passed through `rebase`. */
function rewriteRefs<T>(value: T, rebase: (ref: string) => string): T {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, rebase)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === '$ref' && typeof item === 'string' ? rebase(item) : rewriteRefs(item, rebase),
    ]),
  ) as T;
}
