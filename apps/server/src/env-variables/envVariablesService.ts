import {
  ENV_MAX_TOTAL_BYTES,
  ENV_MAX_VARIABLES,
  type EnvVariable,
  type EnvVariablesResponse,
  type EnvVariablesSaved,
} from '@slipway/contract';
import { DomainError, notFound } from '../domain/errors.js';
import type { Db } from '../infra/db/client.js';
import type { Vault } from '../infra/vault/vault.js';
import type { EnvVariableRow, EnvVariablesRepository } from './envVariablesRepository.js';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const plural = (count: number) => `${count} environment variable${count === 1 ? '' : 's'}`;

/**
 * A workspace's environment variables, owned by one user and stored only as vault ciphertext.
 * Values never appear in a log line or an error message; messages name keys only. Callers pass
 * input already checked by the contract's schemas (key pattern, value size, no NUL).
 */
export function createEnvVariablesService(deps: { repository: EnvVariablesRepository; vault: Vault }) {
  const { repository } = deps;

  async function decryptAll(rows: EnvVariableRow[]): Promise<EnvVariable[]> {
    try {
      return await Promise.all(
        rows.map(async (row) => ({ key: row.key, value: await deps.vault.decrypt(row.valueEnc) })),
      );
    } catch {
      throw new DomainError(
        'internal',
        'Stored environment variables could not be decrypted; was the encryption key changed?',
      );
    }
  }

  async function readPlaintext(userId: string, workspaceName: string, tx?: Db): Promise<EnvVariable[]> {
    return decryptAll(await repository.list(userId, workspaceName, tx));
  }

  /** New keys are added after the existing ones, same-named keys take the new value, others are kept. */
  async function merge(
    userId: string,
    workspaceName: string,
    incoming: EnvVariable[],
  ): Promise<EnvVariablesSaved> {
    const latest = new Map(incoming.map((variable) => [variable.key, variable.value]));
    return repository.withUserLock(userId, async (tx) => {
      const existingRows = await repository.list(userId, workspaceName, tx);
      const merged = new Map(
        (await decryptAll(existingRows)).map((variable) => [variable.key, variable.value]),
      );
      const existingKeys = new Set(merged.keys());
      for (const [key, value] of latest) merged.set(key, value);

      if (merged.size > ENV_MAX_VARIABLES) {
        throw new DomainError(
          'invalid_request',
          `A workspace can hold at most ${ENV_MAX_VARIABLES} environment variables; this would make ${merged.size}`,
        );
      }
      const total = [...merged].reduce((sum, [key, value]) => sum + bytes(key) + bytes(value), 0);
      if (total > ENV_MAX_TOTAL_BYTES) {
        throw new DomainError(
          'payload_too_large',
          `The environment variables of a workspace may total at most ${ENV_MAX_TOTAL_BYTES / 1024} KiB; this would make ${Math.ceil(total / 1024)} KiB`,
        );
      }

      let nextPosition = existingRows.reduce((max, row) => Math.max(max, row.position + 1), 0);
      const rows = await Promise.all(
        [...latest].map(async ([key, value]) => ({
          userId,
          workspaceName,
          key,
          valueEnc: await deps.vault.encrypt(value),
          position: existingKeys.has(key)
            ? existingRows.find((row) => row.key === key)!.position
            : nextPosition++,
        })),
      );
      await repository.upsert(tx, rows);
      const added = [...latest.keys()].filter((key) => !existingKeys.has(key)).length;
      return {
        success: true as const,
        message: `Saved ${plural(latest.size)}`,
        count: merged.size,
        added,
        updated: latest.size - added,
      };
    });
  }

  return {
    /** The owner's variables in the order they were added; none at all is a 404, as the web expects. */
    async list(userId: string, workspaceName: string): Promise<EnvVariablesResponse> {
      const variables = await readPlaintext(userId, workspaceName);
      if (variables.length === 0) throw notFound('No environment variables');
      return { workspace_name: workspaceName, variables, count: variables.length };
    },

    upload: merge,

    /** The settings table's inline edit: sets one value (creating the key if it was removed meanwhile). */
    async setValue(
      userId: string,
      workspaceName: string,
      key: string,
      value: string,
    ): Promise<EnvVariablesSaved> {
      return merge(userId, workspaceName, [{ key, value }]);
    },

    async deleteOne(
      userId: string,
      workspaceName: string,
      key: string,
    ): Promise<{ success: true; deleted: number }> {
      if (!(await repository.deleteOne(userId, workspaceName, key))) {
        throw notFound(`No environment variable "${key}" in this workspace`);
      }
      return { success: true, deleted: 1 };
    },

    async deleteAll(userId: string, workspaceName: string): Promise<{ success: true; deleted: number }> {
      return { success: true, deleted: await repository.deleteAll(userId, workspaceName) };
    },

    /** For the deployment engine: the plaintext variables, in order ([] when there are none). */
    readPlaintext: (userId: string, workspaceName: string) => readPlaintext(userId, workspaceName),
  };
}

export type EnvVariablesService = ReturnType<typeof createEnvVariablesService>;
