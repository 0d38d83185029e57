import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiOperation,
  OpenApiResponse,
  OpenApiSecurityScheme,
} from '@slipway/contract';

/** One row of a fields table: a parameter, or a property of a body (nested ones as `a.b`, array items as `a[].b`). */
export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

export interface AnswerView {
  status: string;
  description: string;
  contentType?: string;
  type?: string;
  fields: FieldRow[];
}

export interface OperationView {
  id: string;
  method: string;
  path: string;
  description?: string;
  access: OpenApiOperation['x-slipway-access'];
  auth: string;
  parameters: (FieldRow & { in: string })[];
  body?: { contentType: string; type: string; required: boolean; fields: FieldRow[] };
  answers: AnswerView[];
  errors: AnswerView[];
}

export interface TagView {
  name: string;
  description?: string;
  operations: OperationView[];
}

export const ACCESS_LABELS: Record<OperationView['access'], string> = {
  public: 'Public',
  user: 'Signed in',
  whitelisted: 'Whitelisted user',
  admin: 'Admin session',
  loopback: 'This machine only',
};

const COMPONENT_REF = '#/components/schemas/';
/** How deep nested properties are listed; deeper ones show as their type only. */
const MAX_DEPTH = 3;

/** The schema a `$ref` names in the document's components (one step), or the schema itself. */
export function resolve(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  if (!schema.$ref?.startsWith(COMPONENT_REF)) return schema;
  return doc.components.schemas[schema.$ref.slice(COMPONENT_REF.length)] ?? {};
}

const literal = (value: unknown) => JSON.stringify(value);

/** A schema in a few words: `string (date-time)`, `integer 1–5000`, `"a" | "b"`, `array of object`, `ErrorBody`. */
export function typeLabel(doc: OpenApiDocument, schema: JsonSchema, depth = 0): string {
  if (schema.$ref) return schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1);
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.enum) return schema.enum.map(literal).join(' | ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    return depth > 2
      ? 'one of several'
      : variants.map((variant) => typeLabel(doc, variant, depth + 1)).join(' | ');
  }
  const types = [schema.type ?? []].flat();
  if (types.length === 0) return schema.properties ? 'object' : 'any';
  return types
    .map((type) => {
      if (type === 'array') {
        const items = schema.items ?? schema.prefixItems?.[0];
        return items ? `array of ${typeLabel(doc, items, depth + 1)}` : 'array';
      }
      if (type === 'object' && !schema.properties && typeof schema.additionalProperties === 'object') {
        return `map of ${typeLabel(doc, schema.additionalProperties, depth + 1)}`;
      }
      return `${type}${bounds(schema)}${schema.format ? ` (${schema.format})` : ''}`;
    })
    .join(' | ');
}

function bounds(schema: JsonSchema): string {
  const low = schema.minimum ?? schema.minLength ?? schema.minItems;
  const high = schema.maximum ?? schema.maxLength ?? schema.maxItems;
  // Zod writes the safe-integer range for every int: not worth showing.
  if (high === Number.MAX_SAFE_INTEGER) return '';
  if (typeof low === 'number' && typeof high === 'number') return ` ${low}–${high}`;
  if (typeof high === 'number') return ` ≤ ${high}`;
  if (typeof low === 'number' && low > 0) return ` ≥ ${low}`;
  return '';
}

/** The properties of an object schema (through arrays, references and unions) as rows, nested ones flattened. */
export function fieldRows(doc: OpenApiDocument, schema: JsonSchema, prefix = '', depth = 0): FieldRow[] {
  const resolved = resolve(doc, schema);
  if (depth >= MAX_DEPTH || (schema.$ref && depth > 0)) return [];
  const variants = resolved.anyOf ?? resolved.oneOf;
  if (variants) {
    // Each variant's fields, a name listed once (the first variant that has it).
    const rows = new Map<string, FieldRow>();
    for (const row of variants.flatMap((variant) => fieldRows(doc, variant, prefix, depth))) {
      if (!rows.has(row.name)) rows.set(row.name, row);
    }
    return [...rows.values()];
  }
  if (resolved.items) return fieldRows(doc, resolved.items, `${prefix}[]`, depth);
  return Object.entries(resolved.properties ?? {}).flatMap(([name, property]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    const row: FieldRow = {
      name: path,
      type: typeLabel(doc, property),
      required: resolved.required?.includes(name) ?? false,
      description: property.description ?? '',
    };
    return [row, ...fieldRows(doc, property, path, depth + 1)];
  });
}

function schemeLabel(scheme: OpenApiSecurityScheme | undefined, name: string): string {
  if (!scheme) return name;
  if (scheme.type === 'http') return `Authorization: Bearer ${scheme.bearerFormat ?? 'token'}`;
  return `${scheme.in === 'cookie' ? 'cookie' : 'header'} ${scheme.name ?? name}`;
}

/** Who may call, in words: the ways to authenticate, each a set of credentials sent together. */
export function authLabel(doc: OpenApiDocument, operation: OpenApiOperation): string {
  if (operation.security.length === 0) return 'None';
  return operation.security
    .map((requirement) =>
      Object.keys(requirement)
        .map((name) => schemeLabel(doc.components.securitySchemes[name], name))
        .join(' + '),
    )
    .join(', or ');
}

function answerView(doc: OpenApiDocument, status: string, answer: OpenApiResponse): AnswerView {
  const [contentType, media] = Object.entries(answer.content ?? {})[0] ?? [];
  return {
    status,
    description: answer.description,
    ...(contentType ? { contentType } : {}),
    ...(media ? { type: typeLabel(doc, media.schema) } : {}),
    fields: media ? fieldRows(doc, media.schema) : [],
  };
}

const isError = (status: string) => status === 'default' || Number(status) >= 400;

function operationView(doc: OpenApiDocument, method: string, path: string, operation: OpenApiOperation) {
  const [contentType, media] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
  const answers = Object.entries(operation.responses).map(([status, answer]) =>
    answerView(doc, status, answer),
  );
  const view: OperationView = {
    id: operation.operationId,
    method: method.toUpperCase(),
    path,
    ...(operation.description ? { description: operation.description } : {}),
    access: operation['x-slipway-access'],
    auth: authLabel(doc, operation),
    parameters: (operation.parameters ?? []).map((parameter) => ({
      name: parameter.name,
      in: parameter.in,
      type: typeLabel(doc, parameter.schema),
      required: parameter.required,
      description: parameter.description ?? '',
    })),
    ...(contentType && media
      ? {
          body: {
            contentType,
            type: typeLabel(doc, media.schema),
            required: operation.requestBody?.required ?? false,
            fields: fieldRows(doc, media.schema),
          },
        }
      : {}),
    answers: answers.filter((answer) => !isError(answer.status)),
    errors: answers.filter((answer) => isError(answer.status)),
  };
  return view;
}

/** The document's operations grouped by tag, in the document's tag order, each group in path order. */
export function operationsByTag(doc: OpenApiDocument): TagView[] {
  const groups = new Map<string, TagView>(
    doc.tags.map((tag) => [tag.name, { name: tag.name, description: tag.description, operations: [] }]),
  );
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const tag = operation.tags[0] ?? 'other';
      const group = groups.get(tag) ?? { name: tag, operations: [] };
      groups.set(tag, group);
      group.operations.push(operationView(doc, method, path, operation));
    }
  }
  return [...groups.values()].filter((group) => group.operations.length > 0);
}
