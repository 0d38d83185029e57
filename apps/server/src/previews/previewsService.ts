import type { PreviewSettings, UpdatePreviewSettings } from '@slipway/contract';
import { DomainError } from '../domain/errors.js';
import type { PreviewVariables } from '../env-variables/previewVariables.js';
import type { UserRow } from '../users/usersRepository.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { PreviewEvents } from './previewEvents.js';
import { presentPreview } from './previewPresenter.js';
import type { PreviewRow, PreviewsRepository } from './previewsRepository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const previewNotFound = (number: number) =>
  new DomainError('not_found', `No preview of pull request ${number}`);

/** Workspace Settings → Previews and the previews' rows, for the workspace's owner; and the sweep. */
export function createPreviewsService(deps: {
  previews: PreviewsRepository;
  workspaces: Pick<WorkspacesRepository, 'findByName' | 'findById'>;
  events: PreviewEvents;
  variables: PreviewVariables;
  /** Tells the deployer a preview has something to do (it acts at once where it runs). */
  wake: () => void;
}) {
  const { previews } = deps;

  /** The user's own workspace, never a preview (a preview has no previews). */
  async function parentOf(user: UserRow, name: string): Promise<WorkspaceRow> {
    const workspace = await deps.workspaces.findByName(user.id, name);
    if (!workspace || workspace.previewOf)
      throw new DomainError('workspace_not_found', 'Workspace not found');
    return workspace;
  }

  async function owned(user: UserRow, name: string, number: number) {
    const parent = await parentOf(user, name);
    const row = await previews.find(parent.id, number);
    if (!row) throw previewNotFound(number);
    return { parent, row };
  }

  async function present(parent: WorkspaceRow, row: PreviewRow) {
    const workspace = row.workspaceId ? await deps.workspaces.findById(row.workspaceId) : undefined;
    return presentPreview(parent, row, workspace);
  }

  return {
    async getSettings(user: UserRow, name: string): Promise<PreviewSettings> {
      return previews.settings((await parentOf(user, name)).id);
    },

    async setSettings(user: UserRow, name: string, change: UpdatePreviewSettings): Promise<PreviewSettings> {
      const parent = await parentOf(user, name);
      const settings = { ...(await previews.settings(parent.id)), ...change } as PreviewSettings;
      await previews.saveSettings(parent.id, settings);
      // Previews turned on or off: the deployer looks at the parents again at once.
      deps.wake();
      return settings;
    },

    async list(user: UserRow, name: string) {
      const parent = await parentOf(user, name);
      return Promise.all((await previews.listOf(parent.id)).map((row) => present(parent, row)));
    },

    async redeploy(user: UserRow, name: string, number: number) {
      const { parent, row } = await owned(user, name, number);
      if (row.state === 'removing') throw new DomainError('conflict', 'This preview is being removed');
      const updated = await previews.update(row.id, {
        pendingSha: row.headSha,
        state: row.state === 'awaiting_approval' ? 'awaiting_approval' : 'deploying',
        lastActivityAt: new Date(),
      });
      deps.wake();
      return present(parent, updated ?? row);
    },

    async approve(user: UserRow, name: string, number: number) {
      const { parent } = await owned(user, name, number);
      const [approved] = await deps.events.approve([parent], number);
      if (!approved) throw new DomainError('conflict', 'This preview is being removed');
      deps.wake();
      return present(parent, approved);
    },

    async remove(user: UserRow, name: string, number: number) {
      const { row } = await owned(user, name, number);
      await previews.update(row.id, { state: 'removing', pendingSha: null, closedAt: new Date() });
      deps.wake();
      return { success: true as const, message: `Preview of pull request ${number} is being removed` };
    },

    listVariables: async (user: UserRow, name: string) =>
      deps.variables.list(user.id, (await parentOf(user, name)).name),

    setVariable: async (
      user: UserRow,
      name: string,
      key: string,
      change: Parameters<PreviewVariables['set']>[3],
    ) => deps.variables.set(user.id, (await parentOf(user, name)).name, key, change),

    /** Marks for removal every preview quiet for longer than its workspace's inactivity days; answers how many. */
    async sweep(now = new Date()): Promise<number> {
      let marked = 0;
      for (const parentId of await previews.parentsWithPreviews()) {
        const { inactivity_days } = await previews.settings(parentId);
        for (const row of await previews.idleSince(
          parentId,
          new Date(now.getTime() - inactivity_days * DAY_MS),
        )) {
          await previews.update(row.id, { state: 'removing', pendingSha: null, closedAt: now });
          marked++;
        }
      }
      return marked;
    },
  };
}

export type PreviewsService = ReturnType<typeof createPreviewsService>;
