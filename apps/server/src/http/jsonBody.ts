import type { FastifyInstance } from 'fastify';

/** Deeper than any call of the contract needs; a workflow's saved state is a few levels at most. */
export const MAX_JSON_DEPTH = 64;

/** The error code http/errorHandler.ts maps to a 400. */
export const JSON_TOO_DEEP = 'SLIPWAY_JSON_TOO_DEEP';

/** How deeply arrays and objects nest in a JSON text; one pass, no recursion, no parsing. */
export function jsonNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c)
        index++; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (char === 0x7d || char === 0x5d) depth--;
  }
  return deepest;
}

/**
 * Fastify's own JSON parser (prototype-poisoning checks included), behind a nesting limit. Without it a
 * body that a route takes as free-form JSON (the workflow's saved state) reached JSON.stringify on the
 * way to the store, whose recursion overflows the stack: a 500 where every other body answers 400.
 */
export function registerJsonBodyParser(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (jsonNestingDepth(text) > MAX_JSON_DEPTH) {
      const error = Object.assign(new Error('The request body is nested too deeply'), {
        statusCode: 400,
        code: JSON_TOO_DEEP,
      });
      done(error, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
