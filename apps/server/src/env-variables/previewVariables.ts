import type { EnvVariable, PreviewVariable, UpdatePreviewVariable } from '@slipway/contract';
import { envVariableSchema } from '@slipway/contract';
import { DomainError, notFound } from '../domain/errors.js';
import type { Vault } from '../infra/vault/vault.js';
import type { EnvVariableRow, EnvVariablesRepository } from './envVariablesRepository.js';

const present = (row: EnvVariableRow): PreviewVariable => ({
  key: row.key,
  also_for_previews: row.forPreviews,
  has_preview_value: row.previewValueEnc !== null,
});

/**
 * Which of a workspace's variables its previews get: none by default. A variable marked "also for previews" goes
 * to previews with its preview value when it has one, else production's; a preview of a pull request that needed
 * approval (a fork's, a stranger's) gets only preview values, never one of production's.
 */
export function createPreviewVariables(deps: { repository: EnvVariablesRepository; vault: Vault }) {
  const { repository } = deps;

  return {
    async list(userId: string, workspaceName: string): Promise<PreviewVariable[]> {
      return (await repository.list(userId, workspaceName)).map(present);
    },

    async set(userId: string, workspaceName: string, key: string, change: UpdatePreviewVariable) {
      const values: { forPreviews?: boolean; previewValueEnc?: string | null } = {};
      if (change.also_for_previews !== undefined) values.forPreviews = change.also_for_previews;
      if (typeof change.preview_value === 'string') {
        const checked = envVariableSchema.safeParse({ key, value: change.preview_value });
        if (!checked.success)
          throw new DomainError('invalid_request', checked.error.issues[0]?.message ?? 'Invalid value');
        values.previewValueEnc = await deps.vault.encrypt(change.preview_value);
        // A value of their own is given to previews: that is what it is for.
        values.forPreviews = change.also_for_previews ?? true;
      } else if (change.preview_value === null) values.previewValueEnc = null;
      const row = await repository.setPreviewShare(userId, workspaceName, key, values);
      if (!row) throw notFound(`No environment variable "${key}" in this workspace`);
      return present(row);
    },

    /** The variables a preview of `workspaceName` runs with. */
    async readForPreview(userId: string, workspaceName: string, trusted: boolean): Promise<EnvVariable[]> {
      const shared = (await repository.list(userId, workspaceName)).filter(
        (row) => row.forPreviews && (trusted || row.previewValueEnc !== null),
      );
      return Promise.all(
        shared.map(async (row) => ({
          key: row.key,
          value: await deps.vault.decrypt(row.previewValueEnc ?? row.valueEnc),
        })),
      );
    },
  };
}

export type PreviewVariables = ReturnType<typeof createPreviewVariables>;
