import { describe, expect, it } from 'vitest';
import type { RequestSamples } from './requestSampleTypes.js';
import type { RouteDefinition } from './route.js';
import { REQUEST_SAMPLES as SAMPLES } from './routeRequests.samples.js';
import { ROUTE_LIST, ROUTES, type RouteName } from './routes.js';

const PARTS = ['params', 'query', 'body'] as const;

function schemaOf(definition: RouteDefinition, part: (typeof PARTS)[number]) {
  const schema = definition[part];
  if (!schema) throw new Error(`${definition.method} ${definition.path} has no ${part} schema`);
  return schema;
}

describe('request schemas of the route table', () => {
  it('has samples for every route that takes a body or a query', () => {
    const missing = ROUTE_LIST.flatMap((definition) =>
      (['query', 'body'] as const)
        .filter((part) => definition[part] && !SAMPLES[definition.name]?.[part])
        .map((part) => `${definition.name} ${part}`),
    );
    expect(missing).toEqual([]);
  });

  for (const [name, samples] of Object.entries(SAMPLES) as [RouteName, RequestSamples][]) {
    const definition: RouteDefinition = ROUTES[name];
    for (const part of PARTS) {
      const partSamples = samples[part];
      if (!partSamples) continue;
      describe(`${name} ${part}`, () => {
        it.each(partSamples.valid.map((value) => [JSON.stringify(value).slice(0, 80), value]))(
          'accepts %s',
          (_label, value) => {
            const result = schemaOf(definition, part).safeParse(value);
            expect(result.error?.issues ?? []).toEqual([]);
          },
        );
        it.each(partSamples.invalid.map((invalid) => [JSON.stringify(invalid.value).slice(0, 80), invalid]))(
          'refuses %s',
          (_label, invalid) => {
            const result = schemaOf(definition, part).safeParse(invalid.value);
            expect(result.success).toBe(false);
            if (invalid.message) expect(result.error?.issues[0]?.message).toBe(invalid.message);
          },
        );
      });
    }
  }
});
