import type { AlertRow } from '../alerts/alertsRepository.js';
import type { StoredLogLine } from '../logs/logStore.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';

export interface AlertMessage {
  subject: string;
  text: string;
}

/** How many of the service's last lines go into a notification: enough to explain a crash. */
export const LOG_LINES_IN_ALERT = 30;

/** Names the workspace, the service and what happened, with the log lines that came just before. */
export function composeAlertMessage(
  workspace: WorkspaceRow,
  alert: AlertRow,
  lastLines: Pick<StoredLogLine, 'ts' | 'service' | 'line'>[],
  kind: 'raised' | 'resolved',
): AlertMessage {
  const service = alert.service ?? 'all services';
  if (kind === 'resolved') {
    return {
      subject: `[Slipway] Resolved: ${alert.title} (${workspace.name})`,
      text: [
        `Resolved: ${alert.title}`,
        '',
        `Workspace: ${workspace.name}`,
        `Service: ${service}`,
        `Triggered: ${alert.triggeredAt.toISOString()}`,
        `Resolved: ${(alert.resolvedAt ?? new Date()).toISOString()} by ${alert.resolvedBy ?? 'system'}`,
      ].join('\n'),
    };
  }
  const logs =
    lastLines.length > 0
      ? lastLines.map((line) => `${line.ts.toISOString()} [${line.service}] ${line.line}`).join('\n')
      : '(no log lines were recorded)';
  return {
    subject: `[Slipway] ${alert.severity.toUpperCase()}: ${alert.title} (${workspace.name})`,
    text: [
      `${alert.title}`,
      '',
      `Workspace: ${workspace.name}`,
      `Service: ${service}`,
      `What happened: ${alert.description}`,
      `Severity: ${alert.severity}`,
      `When: ${alert.triggeredAt.toISOString()}`,
      '',
      `Last log lines${alert.service ? ` of ${alert.service}` : ''}:`,
      logs,
    ].join('\n'),
  };
}
