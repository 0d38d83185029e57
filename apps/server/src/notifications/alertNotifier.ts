import { ALERT_SEVERITIES, type AlertSeverity } from '@slipway/contract';
import type { Logger } from 'pino';
import type { AlertRow } from '../alerts/alertsRepository.js';
import type { AlertListener, AlertLogLine } from '../alerts/alertsService.js';
import type { LogStore } from '../logs/logStore.js';
import type { SecretMasks } from '../logs/secretMasking.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import type { AlertConfigService, SendableConfig } from './alertConfigService.js';
import { composeAlertMessage, LOG_LINES_IN_ALERT } from './alertMessage.js';
import type { Senders } from './senders.js';

/** Whether the workspace's rules let this alert out (no rule for its type means yes). */
export function ruleAllows(config: SendableConfig, alert: AlertRow): boolean {
  const rule = config.rules.find((candidate) => candidate.alert_type === alert.alertType);
  if (!rule) return true;
  if (!rule.enabled) return false;
  if (!rule.min_severity) return true;
  // ALERT_SEVERITIES runs from most to least severe.
  return (
    ALERT_SEVERITIES.indexOf(alert.severity as AlertSeverity) <= ALERT_SEVERITIES.indexOf(rule.min_severity)
  );
}

/** Sends each new (and each resolved) alert to the workspace's enabled channels (a preview's: its parent's). */
export function createAlertNotifier(deps: {
  alertConfigs: AlertConfigService;
  logStore: LogStore;
  senders: Senders;
  masks: SecretMasks;
  logger: Logger;
}): AlertListener {
  async function deliver(
    workspace: WorkspaceRow,
    alert: AlertRow,
    kind: 'raised' | 'resolved',
    given?: AlertLogLine[],
  ) {
    // A preview's alerts (marked as such in their titles) go to the channels of the workspace it previews.
    const config = await deps.alertConfigs.forSending(workspace.previewOf ?? workspace.id);
    if (!config.globalEnabled || !ruleAllows(config, alert)) return;
    const sinks = config.sinks.filter((sink) => sink.enabled);
    if (sinks.length === 0) return;
    const lastLines =
      kind === 'resolved'
        ? []
        : (given ??
          (await deps.logStore.recent(workspace.userId, workspace.name, {
            limit: LOG_LINES_IN_ALERT,
            service: alert.service ?? undefined,
            before: alert.triggeredAt,
          })));
    // Stored lines are masked already; masking the whole message again also covers lines stored before
    // a value was set, and anything else the message quotes.
    const mask = await deps.masks.forWorkspace(workspace.userId, workspace.name);
    const composed = composeAlertMessage(workspace, alert, lastLines, kind);
    const message = { subject: mask(composed.subject), text: mask(composed.text) };
    for (const sink of sinks) {
      const outcome = await deps.senders.send(sink.sink_type, sink.config, message);
      if (!outcome.ok) {
        deps.logger.warn(
          { workspace: workspace.id, alert: alert.id, sink: sink.sink_type, detail: outcome.detail },
          'alert not delivered',
        );
      }
    }
  }

  return {
    alertRaised: (workspace, alert, lastLines) => deliver(workspace, alert, 'raised', lastLines),
    alertResolved: (workspace, alert) => deliver(workspace, alert, 'resolved'),
  };
}
