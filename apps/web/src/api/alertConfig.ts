import type { AlertRule, SinkType } from '@slipway/contract';
import { callRoute } from './routeClient';
import { useWorkspaceQuery } from './workspaceQuery';

/** A notification channel as the settings screen edits it (a new one has no id yet). */
export interface EditableSink {
  id?: string;
  sink_type: SinkType;
  enabled: boolean;
  config: Record<string, unknown>;
}

export interface EditableAlertConfig {
  sinks: EditableSink[];
  rules: AlertRule[];
  global_enabled: boolean;
}

export async function fetchAlertConfig(workspace: string): Promise<EditableAlertConfig> {
  return callRoute('getAlertConfig', { params: { workspace } });
}

export const alertConfigKey = (workspace: string) => ['alert-config', workspace] as const;

/** GET /api/alerts/config/{ws}: the workspace's channels, rules and switch (secrets masked). */
export const useAlertConfig = (workspace: string) =>
  useWorkspaceQuery(alertConfigKey, fetchAlertConfig, workspace);

/** PUT /api/alerts/config/{ws}; answers the saved config (secrets masked again). */
export async function saveAlertConfig(
  workspace: string,
  config: EditableAlertConfig,
): Promise<EditableAlertConfig> {
  return callRoute('saveAlertConfig', {
    params: { workspace },
    body: {
      sinks: config.sinks.map(({ sink_type, enabled, config: sinkConfig, id }) => ({
        ...(id ? { id } : {}),
        sink_type,
        enabled,
        config: sinkConfig,
      })),
      rules: config.rules,
      global_enabled: config.global_enabled,
    },
  });
}

export async function testSink(workspace: string, sinkType: SinkType, config: Record<string, unknown>) {
  return callRoute('testAlertSink', { params: { workspace, sink_type: sinkType }, body: { config } });
}
