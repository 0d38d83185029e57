import type { AlertRule, SinkType } from '@slipway/contract';
import { api } from './client';

/** A notification channel as the settings screen edits it. */
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

const enc = encodeURIComponent;

export async function fetchAlertConfig(workspace: string): Promise<EditableAlertConfig> {
  const { data } = await api.get<Partial<EditableAlertConfig>>(`/api/alerts/config/${enc(workspace)}`);
  return normalize(data);
}

/** PUT /api/alerts/config/{ws}; answers the saved config (secrets masked again). */
export async function saveAlertConfig(
  workspace: string,
  config: EditableAlertConfig,
): Promise<EditableAlertConfig> {
  const { data } = await api.put<Partial<EditableAlertConfig>>(`/api/alerts/config/${enc(workspace)}`, {
    sinks: config.sinks.map(({ sink_type, enabled, config: sinkConfig, id }) => ({
      ...(id ? { id } : {}),
      sink_type,
      enabled,
      config: sinkConfig,
    })),
    rules: config.rules,
    global_enabled: config.global_enabled,
  });
  return normalize(data);
}

export async function testSink(workspace: string, sinkType: SinkType, config: Record<string, unknown>) {
  const { data } = await api.post<{ message?: string }>(
    `/api/alerts/test/${enc(workspace)}/${enc(sinkType)}`,
    {
      config,
    },
  );
  return data;
}

function normalize(data: Partial<EditableAlertConfig> | null | undefined): EditableAlertConfig {
  return {
    sinks: (data?.sinks ?? []).map((sink) => ({ ...sink, config: sink.config ?? {} })),
    rules: data?.rules ?? [],
    global_enabled: data?.global_enabled ?? true,
  };
}
