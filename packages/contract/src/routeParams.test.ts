import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { shownValue } from './pathParams.js';
import { pathParamNames } from './route.js';
import { ROUTE_LIST } from './routes.js';

/** The first words of zod's own messages: a sentence that starts so was written by no one for a person. */
const ZOD_PHRASE =
  /^(Invalid input|Invalid option|Invalid string|Invalid UUID|Invalid email|Too small|Too big|Unrecognized key|Invalid element|Invalid key)/;

/** Bytes no stored name or id holds, and lengths no stored one reaches. */
const HOSTILE = ['a\u0000b', '\u0000', 'x'.repeat(5000), 'a\u001bb', 'line\nbreak', '\ud800'];

const routesWithParams = ROUTE_LIST.filter(
  (definition) => definition.params && definition.kind !== 'static',
).flatMap((definition) =>
  pathParamNames(definition.path).map((name) => ({
    route: definition.name,
    name,
    schema: definition.params?.shape[name] as z.ZodType,
  })),
);

describe('the path parameters of every route', () => {
  it('are all declared', () => {
    expect(routesWithParams.length).toBeGreaterThan(60);
    expect(routesWithParams.filter((param) => !param.schema)).toEqual([]);
  });

  it('refuse NUL and other control characters, broken Unicode and 5,000 characters, each with a sentence', () => {
    const problems: string[] = [];
    for (const { route, name, schema } of routesWithParams) {
      for (const value of HOSTILE) {
        const result = schema.safeParse(value);
        const where = `${route} ${name} ${JSON.stringify(value.slice(0, 8))}`;
        if (result.success) {
          // Only a path inside a repository may hold a line break or a lone surrogate; never NUL or 5,000 characters.
          if (value.includes('\u0000') || value.length > 4096) problems.push(`${where}: accepted`);
          continue;
        }
        const message = result.error.issues[0]?.message ?? '';
        if (ZOD_PHRASE.test(message) || !/^["A-Z]/.test(message)) problems.push(`${where}: "${message}"`);
        if (message.length > 200 || message.includes('\u0000'))
          problems.push(`${where}: shows the value whole`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('name what is wrong in words', () => {
    const workspace = ROUTE_LIST.find((r) => r.name === 'workspaceDetails')?.params?.shape.name as z.ZodType;
    expect(workspace.safeParse('a\u0000b').error?.issues[0]?.message).toBe(
      '"a�b" is not a valid workspace name: letters, digits, dots, dashes and underscores, at most 200',
    );
    expect(workspace.safeParse('my-app_2.0').success).toBe(true);
    const alert = ROUTE_LIST.find((r) => r.name === 'acknowledgeAlert')?.params?.shape.alertId as z.ZodType;
    expect(alert.safeParse('alert_0123456789abcdef0123').success).toBe(true);
    expect(alert.safeParse('x'.repeat(5000)).error?.issues[0]?.message).toMatch(
      /^"x{60}…" is not a valid alert id/,
    );
    expect(shownValue('\ud800z')).toBe('"�z"');
  });
});
