import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Vault } from './vault.js';

const VERSION = 'v1';

/** AES-256-GCM with a random 96-bit nonce per value; the ciphertext carries nonce and tag. */
export function createLocalVault(key: Buffer): Vault {
  if (key.length !== 32) throw new Error('The encryption key must be 32 bytes');
  return {
    async encrypt(plaintext: string): Promise<string> {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString('base64'), tag.toString('base64'), body.toString('base64')].join(':');
    },
    async decrypt(ciphertext: string): Promise<string> {
      const [version, iv, tag, body] = ciphertext.split(':');
      if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('Unreadable ciphertext');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}
