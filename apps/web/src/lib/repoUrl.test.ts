import { describe, expect, it } from 'vitest';
import { parseRepoUrl, REPO_URL_INVALID, REPO_URL_MISSING, redeployTarget } from './repoUrl';

describe('parseRepoUrl', () => {
  it('reads owner and repo from GitHub URLs', () => {
    expect(parseRepoUrl('https://github.com/acme/shop')).toEqual({ owner: 'acme', repo: 'shop' });
    expect(parseRepoUrl('https://github.com/acme/shop.git')).toEqual({ owner: 'acme', repo: 'shop' });
    expect(parseRepoUrl('https://github.com/acme/shop/')).toEqual({ owner: 'acme', repo: 'shop' });
    expect(parseRepoUrl('https://github.com/acme/shop/tree/main')).toEqual({ owner: 'acme', repo: 'shop' });
    expect(parseRepoUrl('git@github.com:acme/my.repo.git')).toEqual({ owner: 'acme', repo: 'my.repo' });
  });

  it('reads the last two parts of a local repositories path', () => {
    expect(parseRepoUrl('/srv/repos/acme/shop')).toEqual({ owner: 'acme', repo: 'shop' });
    expect(parseRepoUrl('file:///tmp/x/acme/shop.git')).toEqual({ owner: 'acme', repo: 'shop' });
  });

  it('refuses URLs without both parts, other hosts and odd names', () => {
    expect(parseRepoUrl('https://github.com/acme')).toBeNull();
    expect(parseRepoUrl('https://github.com/')).toBeNull();
    expect(parseRepoUrl('https://gitlab.com/acme/shop')).toBeNull();
    expect(parseRepoUrl('shop')).toBeNull();
    expect(parseRepoUrl('https://github.com/ac me/shop')).toBeNull();
    expect(parseRepoUrl('')).toBeNull();
    expect(parseRepoUrl(null)).toBeNull();
  });
});

describe('redeployTarget', () => {
  it('uses the spec messages', () => {
    expect(redeployTarget(undefined)).toEqual({ error: REPO_URL_MISSING });
    expect(redeployTarget('nonsense')).toEqual({ error: REPO_URL_INVALID });
    expect(redeployTarget('https://github.com/a/b')).toEqual({ owner: 'a', repo: 'b' });
    expect(REPO_URL_MISSING).toBe('Repository URL not found for this workspace. Cannot redeploy.');
  });
});
