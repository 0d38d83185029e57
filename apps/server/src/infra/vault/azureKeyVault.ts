import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DefaultAzureCredential, type TokenCredential } from '@azure/identity';
import type { Vault } from './vault.js';

const VERSION = 'kv1';
const API_VERSION = '7.4';
const SCOPE = 'https://vault.azure.net/.default';
const WRAP_ALGORITHM = 'RSA-OAEP-256';
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_CACHE_SIZE = 256;

export interface AzureKeyVaultOptions {
  /** e.g. https://my-vault.vault.azure.net */
  vaultUrl: string;
  /** An RSA key in that vault allowed to wrapKey/unwrapKey. */
  keyName: string;
  /** Reads the `v1:` ciphertexts written before Key Vault was configured. */
  fallback: Vault;
  /** Managed identity on Azure, or AZURE_CLIENT_ID/AZURE_TENANT_ID/AZURE_CLIENT_SECRET elsewhere, unless given. */
  credential?: TokenCredential;
  timeoutMs?: number;
  /** How many unwrapped data keys stay in memory. */
  cacheSize?: number;
}

/**
 * Envelope encryption: values are sealed locally with AES-256-GCM under a random 32-byte data key, and only the
 * data key, wrapped by an RSA key that never leaves Key Vault, is stored beside them.
 *
 * One data key per process, wrapped lazily on the first encrypt: saving twenty env vars costs one Key Vault call,
 * not twenty, and a restart rotates the data key. (The data key sits in memory either way, so a per-value key
 * would not protect against someone reading this process's memory.) Unwrapped keys are kept in a bounded LRU, so
 * decrypting a workspace's env vars costs one unwrap per distinct data key.
 *
 * Ciphertext: `kv1:<kid, base64url>:<wrapped key, base64url>:<nonce>:<tag>:<body>` (base64). The header is bound
 * into the GCM tag as associated data. Anything else goes to the fallback vault.
 */
export function createAzureKeyVault(options: AzureKeyVaultOptions): Vault {
  const vaultUrl = new URL(options.vaultUrl);
  const isLoopback = ['127.0.0.1', 'localhost', '[::1]'].includes(vaultUrl.hostname);
  if (vaultUrl.protocol !== 'https:' && !isLoopback) {
    // A bearer token must not travel in the clear.
    throw new Error('AZURE_KEY_VAULT_URL must be an https:// URL');
  }
  const origin = vaultUrl.origin;
  const keyName = options.keyName;
  const credential = options.credential ?? new DefaultAzureCredential();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const cacheSize = options.cacheSize ?? DEFAULT_CACHE_SIZE;

  // Insertion order of a Map is the LRU order: a hit is deleted and re-inserted at the end.
  const unwrapped = new Map<string, Buffer>();
  const pending = new Map<string, Promise<Buffer>>();
  let current: Promise<{ kid: string; wrapped: string; key: Buffer }> | undefined;

  function remember(cacheKey: string, key: Buffer) {
    unwrapped.delete(cacheKey);
    unwrapped.set(cacheKey, key);
    while (unwrapped.size > cacheSize) {
      const oldest = unwrapped.keys().next().value;
      if (oldest === undefined) break;
      unwrapped.delete(oldest);
    }
  }

  async function call(path: string, body: unknown): Promise<{ kid?: unknown; value?: unknown }> {
    let token: string;
    try {
      const accessToken = await credential.getToken(SCOPE);
      if (!accessToken) throw new Error('no token');
      token = accessToken.token;
    } catch (error) {
      throw new Error(`Could not get an Azure token for Key Vault: ${(error as Error).message}`);
    }
    const operation = path.slice(path.lastIndexOf('/') + 1);
    let response: Response;
    try {
      response = await fetch(`${origin}${path}?api-version=${API_VERSION}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const reason =
        (error as Error).name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : (error as Error).message;
      throw new Error(`Azure Key Vault ${operation} failed: ${reason}`);
    }
    const payload = (await response.json().catch(() => undefined)) as
      | { kid?: unknown; value?: unknown; error?: { code?: unknown; message?: unknown } }
      | undefined;
    if (!response.ok) {
      const code = typeof payload?.error?.code === 'string' ? payload.error.code : 'unknown';
      const message = typeof payload?.error?.message === 'string' ? ` ${payload.error.message}` : '';
      const hint =
        response.status === 401 || response.status === 403
          ? ` Check that this server's identity may use wrapKey and unwrapKey on key "${keyName}".`
          : '';
      throw new Error(
        `Azure Key Vault ${operation} was refused (${response.status} ${code}):${message}${hint}`,
      );
    }
    if (!payload) throw new Error(`Azure Key Vault ${operation} answered with something that is not JSON`);
    return payload;
  }

  async function newDataKey() {
    const key = randomBytes(32);
    const result = await call(`/keys/${encodeURIComponent(keyName)}/wrapkey`, {
      alg: WRAP_ALGORITHM,
      value: key.toString('base64url'),
    });
    if (typeof result.kid !== 'string' || typeof result.value !== 'string') {
      throw new Error('Azure Key Vault wrapkey answered without kid and value');
    }
    keyPath(result.kid); // refuse to store a kid we could not unwrap with later
    remember(cacheKeyOf(result.kid, result.value), key);
    return { kid: result.kid, wrapped: result.value, key };
  }

  /** `/keys/{name}/{version}` of a kid, only if it names a key of the configured vault (never send the token elsewhere). */
  function keyPath(kid: string): string {
    let url: URL;
    try {
      url = new URL(kid);
    } catch {
      throw new Error('Unreadable key id from Key Vault ciphertext');
    }
    const match = /^\/keys\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (url.origin !== origin || !match) {
      throw new Error('The key id is not a key of the configured Key Vault (AZURE_KEY_VAULT_URL)');
    }
    return url.pathname;
  }

  async function dataKeyFor(kid: string, wrapped: string): Promise<Buffer> {
    const cacheKey = cacheKeyOf(kid, wrapped);
    const cached = unwrapped.get(cacheKey);
    if (cached) {
      remember(cacheKey, cached);
      return cached;
    }
    // Many env vars decrypted at once share one unwrap.
    let inFlight = pending.get(cacheKey);
    if (!inFlight) {
      inFlight = (async () => {
        const result = await call(`${keyPath(kid)}/unwrapkey`, { alg: WRAP_ALGORITHM, value: wrapped });
        const key =
          typeof result.value === 'string' ? Buffer.from(result.value, 'base64url') : Buffer.alloc(0);
        if (key.length !== 32) throw new Error('Azure Key Vault unwrapkey did not return a 32-byte data key');
        remember(cacheKey, key);
        return key;
      })().finally(() => pending.delete(cacheKey));
      pending.set(cacheKey, inFlight);
    }
    return inFlight;
  }

  return {
    async encrypt(plaintext: string): Promise<string> {
      if (!current) {
        current = newDataKey();
        // A failed wrap (Key Vault down, no permission) is retried by the next encrypt.
        current.catch(() => {
          current = undefined;
        });
      }
      const { kid, wrapped, key } = await current;
      const header = [VERSION, Buffer.from(kid).toString('base64url'), wrapped];
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(header.join(':')));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [...header, iv.toString('base64'), tag.toString('base64'), body.toString('base64')].join(':');
    },

    async decrypt(ciphertext: string): Promise<string> {
      if (!ciphertext.startsWith(`${VERSION}:`)) return options.fallback.decrypt(ciphertext);
      const parts = ciphertext.split(':');
      const [version, kidPart, wrapped, iv, tag, body] = parts;
      if (parts.length !== 6 || !kidPart || !wrapped || !iv || !tag || body === undefined) {
        throw new Error('Unreadable ciphertext');
      }
      const kid = Buffer.from(kidPart, 'base64url').toString('utf8');
      const key = await dataKeyFor(kid, wrapped);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'), {
          authTagLength: 16,
        });
        decipher.setAAD(Buffer.from([version, kidPart, wrapped].join(':')));
        decipher.setAuthTag(Buffer.from(tag, 'base64'));
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new Error('Unreadable ciphertext: it was altered or sealed with another key');
      }
    },
  };
}

function cacheKeyOf(kid: string, wrapped: string) {
  return `${kid} ${wrapped}`;
}
