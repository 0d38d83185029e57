import { randomBytes } from 'node:crypto';
import type { TokenCredential } from '@azure/identity';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KEY_VAULT_TEST_TOKEN, startKeyVaultStandIn } from '../../test/standins/keyVault.js';
import { createAzureKeyVault } from './azureKeyVault.js';
import { createLocalVault } from './localVault.js';

const fixedToken = (token: string): TokenCredential => ({
  getToken: async () => ({ token, expiresOnTimestamp: Date.now() + 3_600_000 }),
});

const SECRETS = [
  'line one\nline two\r\nline three\n',
  `quotes "double" 'single' \`back\``,
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal shell expansion is the point of this value
  '$(id) ${HOME} `whoami`; rm -rf / && echo $PATH',
  'ünïcødé ✓ 🚀',
  '',
  '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n',
];

describe('Azure Key Vault vault (envelope encryption)', () => {
  let keyVault: Awaited<ReturnType<typeof startKeyVaultStandIn>>;
  const local = createLocalVault(randomBytes(32));
  const vaultWith = (options: { token?: string; cacheSize?: number } = {}) =>
    createAzureKeyVault({
      vaultUrl: keyVault.url,
      keyName: 'slipway-secrets',
      fallback: local,
      credential: fixedToken(options.token ?? KEY_VAULT_TEST_TOKEN),
      timeoutMs: 2_000,
      ...(options.cacheSize ? { cacheSize: options.cacheSize } : {}),
    });

  beforeAll(async () => {
    keyVault = await startKeyVaultStandIn({ keyName: 'slipway-secrets' });
  });
  afterAll(() => keyVault.close());
  afterEach(() => {
    keyVault.deny(undefined);
    keyVault.requests.length = 0;
  });

  it('round-trips values byte-exact with one wrap, and the stand-in never sees plaintext', async () => {
    const vault = vaultWith();
    const ciphertexts = await Promise.all(SECRETS.map((secret) => vault.encrypt(secret)));
    for (const ciphertext of ciphertexts) expect(ciphertext).toMatch(/^kv1:/);
    expect(keyVault.count('wrapkey')).toBe(1);

    // A fresh process (empty cache) decrypting them all at once unwraps the shared data key once.
    const restarted = vaultWith();
    expect(await Promise.all(ciphertexts.map((c) => restarted.decrypt(c)))).toEqual(SECRETS);
    expect(await Promise.all(ciphertexts.map((c) => restarted.decrypt(c)))).toEqual(SECRETS);
    expect(keyVault.count('unwrapkey')).toBe(1);

    for (const request of keyVault.requests) {
      expect(request.query).toBe('?api-version=7.4');
      expect(request.authorization).toBe(`Bearer ${KEY_VAULT_TEST_TOKEN}`);
      expect(JSON.parse(request.body).alg).toBe('RSA-OAEP-256');
      for (const secret of SECRETS.filter(Boolean)) expect(request.body).not.toContain(secret);
    }
    for (const ciphertext of ciphertexts)
      for (const secret of SECRETS.filter(Boolean)) {
        expect(ciphertext).not.toContain(secret);
      }
  });

  it('bounds unwraps by the LRU cache across data keys and key versions', async () => {
    // Three processes, three data keys; a key rotation in between must not strand older values.
    const first = await vaultWith().encrypt('from process one');
    keyVault.rotate();
    const second = await vaultWith().encrypt('from process two');
    const third = await vaultWith().encrypt('from process three');
    expect(keyVault.count('wrapkey')).toBe(3);

    const reader = vaultWith({ cacheSize: 2 });
    for (let round = 0; round < 5; round++) {
      expect(await reader.decrypt(second)).toBe('from process two');
      expect(await reader.decrypt(third)).toBe('from process three');
    }
    expect(keyVault.count('unwrapkey')).toBe(2);
    // The oldest entry is evicted when a third key arrives; it then costs one more unwrap.
    expect(await reader.decrypt(first)).toBe('from process one');
    expect(await reader.decrypt(second)).toBe('from process two');
    expect(keyVault.count('unwrapkey')).toBe(4);
    // Unwraps name the exact key version from the ciphertext, so rotated-out versions keep working.
    const unwrapPaths = keyVault.requests.filter((r) => r.path.endsWith('/unwrapkey')).map((r) => r.path);
    expect(new Set(unwrapPaths.map((p) => p.split('/')[3])).size).toBe(2);
  });

  it('still decrypts v1: ciphertexts written by the local vault', async () => {
    const old = await local.encrypt('stored before Key Vault\n$(id)');
    expect(old).toMatch(/^v1:/);
    expect(await vaultWith().decrypt(old)).toBe('stored before Key Vault\n$(id)');
    expect(keyVault.requests).toHaveLength(0);
  });

  it('rejects tampered ciphertext without revealing anything', async () => {
    const vault = vaultWith();
    const ciphertext = await vault.encrypt('top secret value');
    const parts = ciphertext.split(':');
    const body = Buffer.from(parts[5] ?? '', 'base64');
    body[0] = (body[0] ?? 0) ^ 1;
    const tamperedBody = [...parts.slice(0, 5), body.toString('base64')].join(':');
    await expect(vault.decrypt(tamperedBody)).rejects.toThrow(/altered/);
    const tamperedTag = [...parts.slice(0, 4), Buffer.alloc(16).toString('base64'), parts[5]].join(':');
    await expect(vault.decrypt(tamperedTag)).rejects.toThrow(/altered/);
    await expect(vault.decrypt('kv1:broken')).rejects.toThrow(/Unreadable/);

    // A wrapped key from elsewhere is refused by Key Vault; the error names the operation, not the value.
    const foreignWrap = [
      ...parts.slice(0, 2),
      randomBytes(256).toString('base64url'),
      ...parts.slice(3),
    ].join(':');
    const error = await vault.decrypt(foreignWrap).catch((e: Error) => e);
    expect(String(error)).toMatch(/unwrapkey was refused \(400 BadParameter\)/);
    expect(String(error)).not.toContain('top secret value');
  });

  it('never sends its token to a host named inside a ciphertext', async () => {
    const vault = vaultWith();
    const ciphertext = await vault.encrypt('value');
    const parts = ciphertext.split(':');
    const evilKid = Buffer.from('https://attacker.example/keys/slipway-secrets/v1').toString('base64url');
    const redirected = [parts[0], evilKid, ...parts.slice(2)].join(':');
    const before = keyVault.requests.length;
    await expect(vault.decrypt(redirected)).rejects.toThrow(/not a key of the configured Key Vault/);
    expect(keyVault.requests.length).toBe(before);
  });

  it.each([401, 403] as const)(
    'turns a Key Vault %i into a clear error and recovers afterwards',
    async (status) => {
      keyVault.deny(status);
      const vault = vaultWith();
      const error = await vault.encrypt('my password is hunter2').catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect(String(error)).toMatch(
        new RegExp(`Azure Key Vault wrapkey was refused \\(${status} (Unauthorized|Forbidden)\\)`),
      );
      expect(String(error)).toMatch(/wrapKey and unwrapKey on key "slipway-secrets"/);
      expect(String(error)).not.toContain('hunter2');

      keyVault.deny(undefined);
      const ciphertext = await vault.encrypt('my password is hunter2');
      expect(await vault.decrypt(ciphertext)).toBe('my password is hunter2');
    },
  );

  it('reports a wrong token as 401', async () => {
    await expect(vaultWith({ token: 'wrong' }).encrypt('x')).rejects.toThrow(/refused \(401 Unauthorized\)/);
  });

  it('refuses a plain-http vault URL that is not loopback', () => {
    expect(() =>
      createAzureKeyVault({
        vaultUrl: 'http://vault.example',
        keyName: 'k',
        fallback: local,
        credential: fixedToken('t'),
      }),
    ).toThrow(/https/);
  });
});
