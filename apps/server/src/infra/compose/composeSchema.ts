import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { ComposeReadError } from './composeInterpolation.js';

/**
 * Validates each compose file (after interpolation) against the official Compose Specification schema
 * (spec/compose-spec.json, vendored with its licence note). Compiled once per check worker.
 */
let validate: ValidateFunction | undefined;

function compiled(): ValidateFunction {
  if (!validate) {
    const schema = JSON.parse(readFileSync(new URL('./spec/compose-spec.json', import.meta.url), 'utf8'));
    // `format`s (duration, ports…) are left to Compose; the schema names draft-07 by an address ajv does not
    // hold, and it is a fixed, vendored file, so it is not itself validated.
    const ajv = new Ajv({ allErrors: false, strict: false, validateFormats: false, validateSchema: false });
    validate = ajv.compile(schema);
  }
  return validate;
}

/** "services.web.ports[0]" from ajv's "/services/web/ports/0". */
function where(error: ErrorObject): string {
  const parts = error.instancePath.split('/').slice(1);
  return parts.reduce(
    (out, part) => (/^\d+$/.test(part) ? `${out}[${part}]` : out ? `${out}.${part}` : part),
    '',
  );
}

function describe(error: ErrorObject): string {
  const at = where(error);
  if (error.keyword === 'additionalProperties') {
    const key = String(error.params.additionalProperty);
    return `${at ? `${at} has` : 'it has'} an unknown key '${key}'`;
  }
  return `${at || 'the file'} ${error.message ?? 'is invalid'}`;
}

/** Throws a readable error naming the file and the first problem the schema finds. */
export function validateComposeFile(model: unknown, fileName: string) {
  const check = compiled();
  if (!check(model)) {
    const first = check.errors?.[0];
    throw new ComposeReadError(
      `${fileName} does not follow the Compose Specification: ${first ? describe(first) : 'invalid'}`,
    );
  }
}
