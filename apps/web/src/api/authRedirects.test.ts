import { describe, expect, it } from 'vitest';
import { shouldRedirectOnUnauthorized } from './authRedirects';

describe('shouldRedirectOnUnauthorized', () => {
  it('sends a 401 on any page but the root to the root', () => {
    expect(shouldRedirectOnUnauthorized({ pathname: '/dashboard', search: '' })).toBe(true);
    expect(shouldRedirectOnUnauthorized({ pathname: '/', search: '' })).toBe(false);
  });

  it('leaves a sign-in in progress alone', () => {
    expect(shouldRedirectOnUnauthorized({ pathname: '/dashboard', search: '?code=abc' })).toBe(false);
    expect(shouldRedirectOnUnauthorized({ pathname: '/api/auth/github/callback', search: '' })).toBe(false);
  });
});
