import type { ApiToken } from '@slipway/contract';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_FORM,
  expiresText,
  lastUsedText,
  SCOPES,
  toggled,
  tokenRequest,
  workspacesText,
} from './tokenForm';

const token: ApiToken = {
  id: 't1',
  name: 'ci',
  prefix: 'slw_AbCd',
  scopes: ['read'],
  workspaces: null,
  created_at: '2026-11-27T12:00:00.000Z',
  expires_at: null,
  last_used_at: null,
};

describe('the token form', () => {
  it('lists the four scopes in the order of their reach', () => {
    expect(SCOPES).toEqual(['read', 'deploy', 'write', 'secrets:read']);
  });

  it('builds the request: trimmed name, expiry in days or null, no workspaces meaning all', () => {
    expect(
      tokenRequest({ ...EMPTY_FORM, name: '  ci  ', scopes: ['read', 'deploy'], expiry: '365' }),
    ).toEqual({
      input: { name: 'ci', scopes: ['read', 'deploy'], expires_in_days: 365, workspaces: null },
    });
    expect(tokenRequest({ ...EMPTY_FORM, name: 'x', expiry: 'never', workspaces: ['shop'] })).toEqual({
      input: { name: 'x', scopes: ['read'], expires_in_days: null, workspaces: ['shop'] },
    });
  });

  it('says what to fix before asking the server', () => {
    expect(tokenRequest({ ...EMPTY_FORM, name: '   ' })).toEqual({ problem: 'Give the token a name' });
    expect(tokenRequest({ ...EMPTY_FORM, name: 'a'.repeat(65) })).toEqual({
      problem: 'A token name is at most 64 characters',
    });
    expect(tokenRequest({ ...EMPTY_FORM, name: 'ci', scopes: [] })).toEqual({
      problem: 'Choose at least one scope',
    });
  });

  it('toggles a choice, keeping the listed order', () => {
    expect(toggled(['write'], 'read', true, SCOPES)).toEqual(['read', 'write']);
    expect(toggled(['read', 'write'], 'read', false, SCOPES)).toEqual(['write']);
  });
});

describe('the token table', () => {
  it('says Never for no expiry and no use, and All workspaces for none picked', () => {
    expect(expiresText(token)).toBe('Never');
    expect(lastUsedText(token)).toBe('Never');
    expect(workspacesText(token)).toBe('All workspaces');
    expect(workspacesText({ ...token, workspaces: ['shop', 'blog'] })).toBe('shop, blog');
  });

  it('marks an expired token', () => {
    const now = new Date('2026-12-01T00:00:00.000Z');
    expect(expiresText({ ...token, expires_at: '2026-11-30T00:00:00.000Z' }, now)).toMatch(/^Expired /);
    expect(expiresText({ ...token, expires_at: '2027-11-30T00:00:00.000Z' }, now)).not.toMatch(/Expired/);
  });
});
