import type { z } from 'zod';

/** Parses untrusted input with a contract schema; a failure becomes a 400 with a readable message. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  return schema.parse(value);
}
