import { previewWorkspaceName } from '@slipway/contract';
import type { Logger } from 'pino';
import { DomainError } from '../domain/errors.js';
import type { SecretMasks } from '../logs/secretMasking.js';
import type { WorkspaceRow, WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { AlertRow, AlertsRepository, NewAlert } from './alertsRepository.js';
import { alertStatistics, presentAlert } from './presenter.js';

/** Who hears about alerts; notifications/alertNotifier.ts implements it. */
/** Lines that explain an alert, read from the engine when the log store may not hold them yet. */
export type AlertLogLine = { ts: Date; service: string; line: string };

export interface AlertListener {
  alertRaised(workspace: WorkspaceRow, alert: AlertRow, lastLines?: AlertLogLine[]): Promise<void>;
  alertResolved(workspace: WorkspaceRow, alert: AlertRow): Promise<void>;
}

/** The pull request number in a preview workspace's name (previewWorkspaceName's inverse), if it is one of `parentName`. */
function previewNumberOf(name: string, parentName: string): number | undefined {
  const number = Number(/^pr-([1-9][0-9]*)-/.exec(name)?.[1]);
  return number && previewWorkspaceName(parentName, number) === name ? number : undefined;
}

const alertNotFound = () => new DomainError('not_found', 'Alert not found');
const HOUR = 60 * 60_000;

export function createAlertsService(deps: {
  alerts: AlertsRepository;
  workspaces: WorkspacesRepository;
  listener: AlertListener;
  masks: SecretMasks;
  logger: Logger;
}) {
  /** Notification failures are logged, never allowed to stop the health checks. */
  const tell = (run: () => Promise<void>) =>
    run().catch((error) => deps.logger.error({ err: error }, 'alert notification failed'));

  /**
   * What an alert of a preview workspace starts with: "Preview of pull request #7 of shop: ", in its title and so
   * in every message; an empty string for any other workspace. Its notifications go to the parent's channels.
   */
  async function previewMark(workspace: WorkspaceRow): Promise<string> {
    if (!workspace.previewOf) return '';
    const parent = await deps.workspaces.findById(workspace.previewOf);
    const number = parent ? previewNumberOf(workspace.name, parent.name) : undefined;
    return parent && number ? `Preview of pull request #${number} of ${parent.name}: ` : 'Preview: ';
  }

  /** The alert, only if its workspace belongs to `userId`. */
  async function findOwned(userId: string, alertId: string): Promise<AlertRow | undefined> {
    const alert = await deps.alerts.findById(alertId);
    if (!alert) return undefined;
    const workspace = await deps.workspaces.findById(alert.workspaceId);
    return workspace?.userId === userId ? alert : undefined;
  }

  return {
    /**
     * Raises the alert once per failure and notifies only when it is new; a failure whose alert is still open
     * becomes that alert's newest cause (its title and description). Returns the alert only when new.
     */
    async raise(
      workspace: WorkspaceRow,
      alert: Omit<NewAlert, 'workspaceId'>,
      context: { lastLines?: { ts: Date; line: string }[] } = {},
    ): Promise<AlertRow | undefined> {
      // Titles and descriptions quote container and service names the repository chose: masked too.
      const mask = await deps.masks.forWorkspace(workspace.userId, workspace.name);
      const raised = await deps.alerts.raise({
        ...alert,
        title: `${await previewMark(workspace)}${mask(alert.title)}`,
        description: mask(alert.description),
        workspaceId: workspace.id,
      });
      if (!raised?.created) return undefined;
      const lastLines = context.lastLines?.map((line) => ({
        ts: line.ts,
        service: alert.service ?? '',
        line: mask(line.line),
      }));
      await tell(() => deps.listener.alertRaised(workspace, raised.row, lastLines));
      return raised.row;
    },

    /**
     * An event the workspace's owner hears about once (a restore of a backup): in the alert history, sent to
     * the channels as raised, never active.
     */
    async record(
      workspace: WorkspaceRow,
      alert: Omit<NewAlert, 'workspaceId'>,
    ): Promise<AlertRow | undefined> {
      const mask = await deps.masks.forWorkspace(workspace.userId, workspace.name);
      const row = await deps.alerts.record({
        ...alert,
        title: `${await previewMark(workspace)}${mask(alert.title)}`,
        description: mask(alert.description),
        workspaceId: workspace.id,
      });
      if (row) await tell(() => deps.listener.alertRaised(workspace, row, []));
      return row;
    },

    /** Resolves the failure's alert, if active, because the failure is over. */
    async recover(workspace: WorkspaceRow, fingerprint: string): Promise<AlertRow | undefined> {
      const row = await deps.alerts.resolveFingerprint(workspace.id, fingerprint, 'system');
      if (row) await tell(() => deps.listener.alertResolved(workspace, row));
      return row;
    },

    activeFingerprints: (workspaceId: string) => deps.alerts.activeFingerprints(workspaceId),
    allActiveFingerprints: () => deps.alerts.allActiveFingerprints(),

    async active(userId: string, workspaceName: string) {
      const workspace = await deps.workspaces.findOwned(userId, workspaceName);
      return (await deps.alerts.active(workspace.id)).map(presentAlert);
    },

    async recent(userId: string, workspaceName: string, hours: number) {
      const workspace = await deps.workspaces.findOwned(userId, workspaceName);
      return (await deps.alerts.since(workspace.id, new Date(Date.now() - hours * HOUR))).map(presentAlert);
    },

    async statistics(userId: string, workspaceName: string, days: number) {
      const workspace = await deps.workspaces.findOwned(userId, workspaceName);
      return alertStatistics(await deps.alerts.since(workspace.id, new Date(Date.now() - days * 24 * HOUR)));
    },

    async acknowledge(userId: string, alertId: string, by: string) {
      if (!(await findOwned(userId, alertId))) throw alertNotFound();
      const row = await deps.alerts.acknowledge(alertId, by);
      if (!row) throw alertNotFound();
      return { success: true as const, alert: presentAlert(row) };
    },

    async resolve(userId: string, alertId: string, by: string) {
      const existing = await findOwned(userId, alertId);
      if (!existing) throw alertNotFound();
      // Resolving twice is not an error: the second click finds it already resolved.
      const row = (await deps.alerts.resolve(alertId, by)) ?? existing;
      return { success: true as const, alert: presentAlert(row) };
    },
  };
}

export type AlertsService = ReturnType<typeof createAlertsService>;
