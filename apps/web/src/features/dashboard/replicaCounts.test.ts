import { describe, expect, it } from 'vitest';
import { replicaCounts } from './replicaCounts';

describe('replicaCounts', () => {
  it('counts a service’s replicas by their names, and a single container as one', () => {
    expect(replicaCounts(['web', 'api', 'db'], ['web.1', 'web.2', 'web.3', 'api', 'web.api.1'])).toEqual({
      web: 3,
      api: 1,
      db: 0,
    });
  });
});
