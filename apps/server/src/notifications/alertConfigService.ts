import { randomUUID } from 'node:crypto';
import {
  ALERT_TYPES,
  type AlertConfig,
  type AlertRule,
  type SinkType,
  sinkConfigProblem,
} from '@slipway/contract';
import { eq } from 'drizzle-orm';
import { DomainError } from '../domain/errors.js';
import type { Db } from '../infra/db/client.js';
import { alertConfigs } from '../infra/db/schema.js';
import type { Vault } from '../infra/vault/vault.js';
import type { WorkspacesRepository } from '../workspaces/workspacesRepository.js';
import type { AlertMessage } from './alertMessage.js';
import type { Senders } from './senders.js';
import { maskConfig, openConfig, type StoredConfig, sealConfig } from './sinkSecrets.js';

interface StoredSink {
  id: string;
  sink_type: SinkType;
  enabled: boolean;
  config: StoredConfig;
}

export interface SendableConfig {
  globalEnabled: boolean;
  rules: AlertRule[];
  sinks: StoredSink[];
}

const DEFAULT_RULES: AlertRule[] = ALERT_TYPES.map((alertType) => ({ alert_type: alertType, enabled: true }));

/**
 * A workspace's notification settings. Sink secrets are sealed by the vault on the way in and masked on
 * the way out; only `forSending` opens them, for the senders.
 */
export function createAlertConfigService(deps: {
  db: Db;
  vault: Vault;
  workspaces: WorkspacesRepository;
  senders: Senders;
}) {
  async function load(workspaceId: string): Promise<SendableConfig> {
    const [row] = await deps.db.select().from(alertConfigs).where(eq(alertConfigs.workspaceId, workspaceId));
    if (!row) return { globalEnabled: true, rules: DEFAULT_RULES, sinks: [] };
    return {
      globalEnabled: row.globalEnabled,
      rules: row.rules as AlertRule[],
      sinks: row.sinks as StoredSink[],
    };
  }

  const present = (config: SendableConfig) => ({
    sinks: config.sinks.map((sink) => ({ ...sink, config: maskConfig(sink.config) })),
    rules: config.rules,
    global_enabled: config.globalEnabled,
  });

  /** The stored counterpart of an incoming sink: same id, else same position and type. */
  const counterpart = (stored: StoredSink[], sink: AlertConfig['sinks'][number], index: number) =>
    (sink.id ? stored.find((candidate) => candidate.id === sink.id) : undefined) ??
    (stored[index]?.sink_type === sink.sink_type ? stored[index] : undefined);

  return {
    async get(userId: string, workspaceName: string) {
      const workspace = await deps.workspaces.findOwned(userId, workspaceName);
      return present(await load(workspace.id));
    },

    async save(userId: string, workspaceName: string, incoming: AlertConfig) {
      const workspace = await deps.workspaces.findOwned(userId, workspaceName);
      const previous = (await load(workspace.id)).sinks;
      const sinks: StoredSink[] = [];
      for (const [index, sink] of incoming.sinks.entries()) {
        const before = counterpart(previous, sink, index);
        sinks.push({
          id: before?.id ?? randomUUID(),
          sink_type: sink.sink_type,
          enabled: sink.enabled,
          config: await sealConfig(deps.vault, sink.config, before?.config),
        });
      }
      const values = {
        sinks,
        rules: incoming.rules,
        globalEnabled: incoming.global_enabled,
        updatedAt: new Date(),
      };
      await deps.db
        .insert(alertConfigs)
        .values({ workspaceId: workspace.id, ...values })
        .onConflictDoUpdate({ target: alertConfigs.workspaceId, set: values });
      return present({ globalEnabled: values.globalEnabled, rules: values.rules, sinks });
    },

    /** Sends a test message with the config as the browser has it (masked secrets mean the stored ones). */
    async test(userId: string, workspaceName: string, sinkType: SinkType, config: StoredConfig) {
      const workspace = await deps.workspaces.findOwned(userId, workspaceName);
      const problem = sinkConfigProblem(sinkType, config);
      if (problem) throw new DomainError('invalid_request', problem);
      const stored = (await load(workspace.id)).sinks.find((sink) => sink.sink_type === sinkType);
      const sealed = await sealConfig(deps.vault, config, stored?.config);
      const message: AlertMessage = {
        subject: `[Slipway] Test notification for ${workspace.name}`,
        text: `This is a test notification from Slipway for workspace ${workspace.name}.\nAlerts for this workspace will arrive here.`,
      };
      const outcome = await deps.senders.send(sinkType, await openConfig(deps.vault, sealed), message);
      if (!outcome.ok) {
        throw new DomainError('upstream_failed', 'Failed to send test notification', {
          detail: outcome.detail,
        });
      }
      return { success: true as const, message: `Test notification sent: ${outcome.detail}` };
    },

    /** Settings with secrets opened, for the notifier only. */
    async forSending(workspaceId: string): Promise<SendableConfig> {
      const config = await load(workspaceId);
      return {
        ...config,
        sinks: await Promise.all(
          config.sinks.map(async (sink) => ({ ...sink, config: await openConfig(deps.vault, sink.config) })),
        ),
      };
    },
  };
}

export type AlertConfigService = ReturnType<typeof createAlertConfigService>;
