import { describe, expect, it } from 'vitest';
import { findTableRoute } from './contractCheck.js';

describe('the route a test request is checked against', () => {
  it('matches each request to its own route, literal segments before parameters', () => {
    expect(findTableRoute('GET', '/api/admin/users/waiting-list')?.name).toBe('adminWaitingList');
    expect(findTableRoute('POST', '/api/admin/users/bulk-whitelist')?.name).toBe('bulkWhitelist');
    expect(findTableRoute('POST', '/api/admin/users/u1/whitelist')?.name).toBe('whitelistUser');
    expect(findTableRoute('GET', '/api/github/repos/o/r/contents/a/b.ts?ref=main')?.name).toBe(
      'repositoryContents',
    );
    expect(findTableRoute('POST', '/api/subscriptions/hello')?.name).toBe('createSubscription');
    expect(findTableRoute('GET', '/api/subscriptions/sub1')?.name).toBe('getSubscription');
    expect(findTableRoute('GET', '/api/unknown')).toBeUndefined();
  });
});
