import {
  constants,
  generateKeyPairSync,
  type KeyObject,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
} from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const KEY_VAULT_TEST_TOKEN = 'stand-in-key-vault-token';

interface KeyVersion {
  publicKey: KeyObject;
  privateKey: KeyObject;
}

/**
 * Azure Key Vault's key operations as the REST API documents them (api-version 7.4): POST
 * /keys/{name}[/{version}]/wrapkey and /unwrapkey with `{alg: 'RSA-OAEP-256', value: base64url}`, answering
 * `{kid, value}`, and errors as `{error: {code, message}}`. The key is a real RSA-2048 pair; the private half never
 * leaves this server, as in Key Vault. Every request is logged raw so tests can check what crossed the wire.
 */
export async function startKeyVaultStandIn(options: { keyName: string; token?: string }) {
  const token = options.token ?? KEY_VAULT_TEST_TOKEN;
  const versions = new Map<string, KeyVersion>();
  let latest = '';
  let base = '';
  let denyWith: 401 | 403 | undefined;
  const requests: { method: string; path: string; query: string; authorization: string; body: string }[] = [];

  function rotate(): string {
    latest = randomBytes(16).toString('hex');
    versions.set(latest, generateKeyPairSync('rsa', { modulusLength: 2048 }));
    return latest;
  }
  rotate();

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      const authorization = req.headers.authorization ?? '';
      requests.push({
        method: req.method ?? '',
        path: url.pathname,
        query: url.search,
        authorization,
        body: raw,
      });
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(payload));
      };
      const fail = (status: number, code: string, message: string) =>
        send(status, { error: { code, message } });

      if (url.searchParams.get('api-version') !== '7.4') {
        return fail(400, 'BadParameter', 'The request URI contains an invalid or missing api-version.');
      }
      if (authorization !== `Bearer ${token}` || denyWith === 401) {
        return send(
          401,
          { error: { code: 'Unauthorized', message: 'AKV10000: Request is missing a Bearer or PoP token.' } },
          {
            'www-authenticate':
              'Bearer authorization="https://login.microsoftonline.com/tenant", resource="https://vault.azure.net"',
          },
        );
      }
      const match = /^\/keys\/([^/]+)(?:\/([^/]+))?\/(wrapkey|unwrapkey)$/.exec(url.pathname);
      if (req.method !== 'POST' || !match) return fail(404, 'NotFound', 'Not found.');
      const [, name, requestedVersion, operation] = match;
      if (denyWith === 403) {
        return fail(
          403,
          'Forbidden',
          `The user, group or application does not have keys ${operation === 'wrapkey' ? 'wrapKey' : 'unwrapKey'} permission on key vault.`,
        );
      }
      const version = requestedVersion ?? latest;
      const pair = versions.get(version);
      if (name !== options.keyName || !pair) {
        return fail(
          404,
          'KeyNotFound',
          `A key with (name/id) ${name}/${version} was not found in this key vault.`,
        );
      }
      let body: { alg?: unknown; value?: unknown };
      try {
        body = JSON.parse(raw);
      } catch {
        return fail(400, 'BadParameter', 'The request body is not valid JSON.');
      }
      if (body.alg !== 'RSA-OAEP-256') return fail(400, 'BadParameter', 'Invalid algorithm.');
      if (typeof body.value !== 'string') return fail(400, 'BadParameter', 'Property value is required.');
      const input = Buffer.from(body.value, 'base64url');
      const padding = { padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' };
      try {
        const output =
          operation === 'wrapkey'
            ? publicEncrypt({ key: pair.publicKey, ...padding }, input)
            : privateDecrypt({ key: pair.privateKey, ...padding }, input);
        return send(200, { kid: `${base}/keys/${name}/${version}`, value: output.toString('base64url') });
      } catch {
        return fail(400, 'BadParameter', 'Decryption failed.');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    requests,
    count: (operation: 'wrapkey' | 'unwrapkey') =>
      requests.filter((r) => r.path.endsWith(`/${operation}`)).length,
    /** A new key version becomes the one `/keys/{name}/wrapkey` uses; older versions still unwrap. */
    rotate,
    /** Answer every key operation with 401 or 403 until called with undefined. */
    deny(status: 401 | 403 | undefined) {
      denyWith = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
