import { SECRET_MASK } from '@slipway/contract';
import type { Vault } from '../infra/vault/vault.js';

/** Config fields holding credentials: stored encrypted, never sent back in clear. */
export const isSecretField = (key: string) => /password|token|secret/i.test(key);

/** How an encrypted value sits inside a stored sink config. */
interface Sealed {
  $vault: string;
}
const isSealed = (value: unknown): value is Sealed =>
  typeof value === 'object' && value !== null && typeof (value as Sealed).$vault === 'string';

export type StoredConfig = Record<string, unknown>;

/**
 * The config to store: secrets encrypted; a masked secret sent back by the browser keeps the stored
 * value; an emptied one is removed.
 */
export async function sealConfig(vault: Vault, incoming: StoredConfig, previous: StoredConfig | undefined) {
  const sealed: StoredConfig = {};
  for (const [key, value] of Object.entries(incoming)) {
    if (!isSecretField(key)) {
      sealed[key] = value;
      continue;
    }
    if (value === SECRET_MASK) {
      const kept = previous?.[key];
      if (isSealed(kept)) sealed[key] = kept;
    } else if (typeof value === 'string' && value !== '') {
      sealed[key] = { $vault: await vault.encrypt(value) } satisfies Sealed;
    }
  }
  return sealed;
}

/** What the browser sees: every stored secret replaced by the mask. */
export function maskConfig(stored: StoredConfig): StoredConfig {
  return Object.fromEntries(
    Object.entries(stored).map(([key, value]) => [key, isSealed(value) ? SECRET_MASK : value]),
  );
}

/** What a sender needs: secrets decrypted (server-side only). */
export async function openConfig(vault: Vault, stored: StoredConfig): Promise<StoredConfig> {
  const open: StoredConfig = {};
  for (const [key, value] of Object.entries(stored))
    open[key] = isSealed(value) ? await vault.decrypt(value.$vault) : value;
  return open;
}
