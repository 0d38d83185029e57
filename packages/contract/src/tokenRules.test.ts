import { describe, expect, it } from 'vitest';
import { ROUTE_LIST } from './routes.js';
import { TOKEN_RULES, type TokenRule } from './tokenRules.js';

describe('the token rules', () => {
  it('open to tokens exactly the routes the table opens to anyone, as it opens them to anyone', () => {
    const mismatched = ROUTE_LIST.filter((definition) => {
      const rule: TokenRule = TOKEN_RULES[definition.name];
      const open = definition.access === 'public' || definition.access === 'loopback';
      return open !== (rule.scope === 'public');
    }).map(
      (definition) => `${definition.name} (${definition.access}): ${TOKEN_RULES[definition.name].scope}`,
    );
    expect(mismatched).toEqual([]);
  });
});
