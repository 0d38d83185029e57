import { z } from 'zod';
import { idParam, workspaceNameParam } from './pathParams.js';
import { successMessageSchema, successSchema, timestampSchema } from './schemaKit.js';

export const ALERT_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];
export const ALERT_TYPES = [
  'container_crashed',
  'restart_loop',
  'service_unreachable',
  'containers_missing',
  /** Backups (apps/server/src/backups/backupAlerts.ts): a failed backup, a missed schedule, a restore. */
  'backup_failed',
  'backup_missed',
  'backup_restored',
  'restore_failed',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export const alertViewSchema = z.strictObject({
  alert_id: z.string(),
  title: z.string(),
  description: z.string(),
  alert_type: z.string(),
  severity: z.enum(ALERT_SEVERITIES),
  state: z.enum(['active', 'resolved']),
  service: z.string().nullable(),
  triggered_at: timestampSchema,
  acknowledged_at: timestampSchema.nullable(),
  acknowledged_by: z.string().nullable(),
  resolved_at: timestampSchema.nullable(),
  resolved_by: z.string().nullable(),
});
export type AlertView = z.infer<typeof alertViewSchema>;
export const alertListSchema = z.array(alertViewSchema);
/** POST /api/alert-acknowledge/{id} and /api/alert-resolve/{id}. */
export const alertActionResultSchema = successSchema.extend({ alert: alertViewSchema });

export const alertStatisticsSchema = z.strictObject({
  total_alerts: z.number().int().min(0),
  active_alerts: z.number().int().min(0),
  resolved_alerts: z.number().int().min(0),
  /** Minutes from triggered to acknowledged (or resolved, when never acknowledged); 0 with none answered. */
  avg_response_time: z.number().min(0),
});
export type AlertStatistics = z.infer<typeof alertStatisticsSchema>;

export const alertWorkspaceParamsSchema = z.object({ workspace: workspaceNameParam });
export const alertIdParamsSchema = z.object({ alertId: idParam('alert id') });

export const recentAlertsQuerySchema = z.object({
  hours: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24),
});
export const alertStatisticsQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(90).default(7),
});
export const acknowledgeAlertSchema = z.object({
  acknowledged_by: z.string().trim().min(1).max(100).default('user'),
});
export const resolveAlertSchema = z.object({
  resolved_by: z.string().trim().min(1).max(100).default('user'),
});

/** What a masked secret looks like in responses; sent back unchanged, it means "keep the stored value". */
export const SECRET_MASK = '••••••••';
export const SINK_TYPES = ['email', 'telegram'] as const;
export type SinkType = (typeof SINK_TYPES)[number];

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const sinkConfigSchema = z.record(z.string().max(100), z.unknown()).default({});

/** The spec's per-sink validation messages, shared by the settings screen and the server. */
export function sinkConfigProblem(sinkType: SinkType, config: Record<string, unknown>): string | undefined {
  if (sinkType === 'email') {
    const to = typeof config.to_email === 'string' ? config.to_email.trim() : '';
    if (!to) return 'Email address is required';
    if (!EMAIL_PATTERN.test(to) || to.length > 254) return 'Please enter a valid email address';
    return undefined;
  }
  const chatId = config.chat_id;
  const hasChatId = (typeof chatId === 'string' && chatId.trim() !== '') || typeof chatId === 'number';
  const chatIds = config.chat_ids;
  const hasChatIds =
    Array.isArray(chatIds) &&
    chatIds.some((id) => (typeof id === 'string' && id.trim() !== '') || typeof id === 'number');
  return hasChatId || hasChatIds ? undefined : 'At least one chat ID is required';
}

export const alertSinkSchema = z
  .object({
    id: z.string().max(64).optional(),
    sink_type: z.enum(SINK_TYPES, { error: 'Channel type must be email or telegram' }),
    enabled: z.boolean().default(true),
    config: sinkConfigSchema,
  })
  .superRefine((sink, context) => {
    const problem = sinkConfigProblem(sink.sink_type, sink.config);
    if (problem) context.addIssue({ code: 'custom', message: problem, path: ['config'] });
  });
export type AlertSink = z.output<typeof alertSinkSchema>;

export const alertRuleSchema = z.object({
  alert_type: z.string().min(1).max(64),
  enabled: z.boolean().default(true),
  min_severity: z.enum(ALERT_SEVERITIES).optional(),
});
export type AlertRule = z.output<typeof alertRuleSchema>;

export const alertConfigSchema = z.object({
  sinks: z.array(alertSinkSchema).max(20).default([]),
  rules: z.array(alertRuleSchema).max(50).default([]),
  global_enabled: z.boolean().default(true),
});
export type AlertConfig = z.output<typeof alertConfigSchema>;

export const testSinkParamsSchema = z.object({
  workspace: workspaceNameParam,
  sink_type: z.enum(SINK_TYPES, { error: 'Channel type must be email or telegram' }),
});
export const testSinkBodySchema = z.object({ config: sinkConfigSchema });

/** The saved settings as the browser sees them: sink ids filled in, stored secrets masked. */
export const alertConfigViewSchema = z.strictObject({
  sinks: z.array(
    z.strictObject({
      id: z.string(),
      sink_type: z.enum(SINK_TYPES),
      enabled: z.boolean(),
      config: z.record(z.string(), z.unknown()),
    }),
  ),
  rules: z.array(
    z.strictObject({
      alert_type: z.string(),
      enabled: z.boolean(),
      min_severity: z.enum(ALERT_SEVERITIES).optional(),
    }),
  ),
  global_enabled: z.boolean(),
});
export type AlertConfigView = z.infer<typeof alertConfigViewSchema>;
export const testSinkResultSchema = successMessageSchema;
