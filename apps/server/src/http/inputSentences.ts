import type { z } from 'zod';

/**
 * The words a refused input gets when its schema wrote none of its own: zod's defaults ("Invalid input:
 * expected string, received number") name a type system, not the field a person sent. Messages the contract
 * wrote (the spec's texts, the path parameters' sentences) take precedence: zod asks this map only for issues
 * without one.
 */

export type InputPart = 'params' | 'query' | 'body';

/** The first words of zod's own messages: a message that starts so was written by no one for a person. */
const ZOD_DEFAULT =
  /^(Invalid input|Invalid option|Invalid string|Invalid UUID|Invalid email|Invalid ISO|Invalid URL|Too small|Too big|Unrecognized key|Invalid element|Invalid key|Invalid union|Invalid date|Invalid number|Invalid$)/;

export const isZodDefault = (message: string) => ZOD_DEFAULT.test(message);

const KIND: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  date: 'a date',
  null: 'null',
};

/** How a sentence names the input at `path` of `part`. */
export function inputName(part: InputPart, path: readonly PropertyKey[] | undefined): string {
  const field = (path ?? []).map(String).join('.');
  if (part === 'params') return field ? `The path parameter "${field}"` : 'The path';
  if (part === 'query') return field ? `The query parameter "${field}"` : 'The query';
  return field ? `The field "${field}"` : 'The request body';
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

function sizeLimit(issue: z.core.$ZodRawIssue, bound: 'least' | 'most', limit: number | bigint): string {
  const origin = 'origin' in issue ? issue.origin : undefined;
  const count = Number(limit);
  if (origin === 'string') return `at ${bound} ${plural(count, 'character', 'characters')}`;
  if (origin === 'array' || origin === 'set') return `at ${bound} ${plural(count, 'item', 'items')}`;
  return `at ${bound} ${count}`;
}

function sentence(part: InputPart, issue: z.core.$ZodRawIssue): string {
  const name = inputName(part, issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      // A parse's raw issue carries the input; a finished one (a service's own parse) only zod's words.
      const missing =
        'input' in issue
          ? issue.input === undefined
          : / received undefined$/.test((issue as { message?: string }).message ?? '');
      if (missing) return `${name} is missing`;
      const kind = KIND[issue.expected] ?? issue.expected;
      return part === 'body' && !issue.path?.length && issue.expected === 'object'
        ? 'The request body must be a JSON object'
        : `${name} must be ${kind}`;
    }
    case 'too_small':
      if ('origin' in issue && issue.origin === 'string' && Number(issue.minimum) === 1)
        return `${name} must not be empty`;
      return `${name} must be ${sizeLimit(issue, 'least', issue.minimum)}`;
    case 'too_big':
      return `${name} must be ${sizeLimit(issue, 'most', issue.maximum)}`;
    case 'invalid_value':
      return `${name} must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'unrecognized_keys':
      return `${inputName(part, [...(issue.path ?? []), issue.keys[0] ?? ''])} is not one this call takes`;
    case 'invalid_format':
      return issue.format === 'email' ? `${name} is not a valid email address` : `${name} is not valid`;
    case 'not_multiple_of':
      return `${name} must be a multiple of ${issue.divisor}`;
    default:
      return `${name} is not valid`;
  }
}

/** The per-parse error map for one part of a request's input; also words for a finished issue. */
export const inputSentences =
  (part: InputPart) =>
  (issue: z.core.$ZodRawIssue | z.core.$ZodIssue): string =>
    sentence(part, issue as z.core.$ZodRawIssue);
