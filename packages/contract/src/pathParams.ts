import { z } from 'zod';

/**
 * The kinds of path parameter the route table uses. Each refuses, with a sentence naming what it is, anything
 * no stored name or id can be — a control character (NUL among them, which PostgreSQL cannot store), a value
 * longer than any stored one — before a handler looks it up. routeParams.test.ts holds every route's params to
 * these rules.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A refused value as a sentence shows it: quoted, cut short, control characters and broken Unicode made visible. */
export function shownValue(value: unknown): string {
  if (typeof value !== 'string') return 'This';
  const visible = value.replace(CONTROLS, '�').replace(LONE_SURROGATE, '�');
  return `"${visible.length > 60 ? `${visible.slice(0, 60)}…` : visible}"`;
}

/** A name made of `pattern`'s characters, at most `max` long, never `.` or `..` (they would name a directory). */
function nameParam(what: string, pattern: RegExp, max: number, rule: string) {
  return z
    .string()
    .refine((value) => value.length <= max && pattern.test(value) && value !== '.' && value !== '..', {
      error: (issue) => `${shownValue(issue.input)} is not a valid ${what}: ${rule}`,
    })
    .describe(`The ${what}.`);
}

/** Free text of a name the server checks further (an email address, a repository owner): no control characters. */
export function textParam(what: string, max: number) {
  return z
    .string()
    .refine((value) => value.length > 0 && value.length <= max && !CONTROL.test(value), {
      error: (issue) =>
        `${shownValue(issue.input)} is not a valid ${what}: at most ${max} characters, none of them control characters`,
    })
    .describe(`The ${what}.`);
}

/** A workspace's name (a repository name, or a preview's `pr-{number}-{name}`), as every workspace route takes it. */
export const workspaceNameParam = nameParam(
  'workspace name',
  /^[A-Za-z0-9._-]+$/,
  200,
  'letters, digits, dots, dashes and underscores, at most 200',
);

/** An id Slipway or a payment provider made up (`alert_…`, a subscription's): letters, digits and `_ - . :`. */
export function idParam(what: string) {
  return nameParam(what, /^[A-Za-z0-9_.:-]+$/, 200, 'letters, digits, dots, colons, dashes and underscores');
}

/** An id that is a UUID (rows whose key is one: looking up anything else would be a database error). */
export function uuidParam(what: string) {
  return z
    .string()
    .refine((value) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value), {
      error: (issue) => `${shownValue(issue.input)} is not a valid ${what}`,
    })
    .describe(`The ${what} (a UUID).`);
}
