import { z } from 'zod';

export const ALERT_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];
export const ALERT_TYPES = [
  'container_crashed',
  'restart_loop',
  'service_unreachable',
  'containers_missing',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export interface AlertView {
  alert_id: string;
  title: string;
  description: string;
  alert_type: string;
  severity: AlertSeverity;
  state: 'active' | 'resolved';
  service: string | null;
  triggered_at: string;
  acknowledged_at: string | null;
  acknowledged_by: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
}

export interface AlertStatistics {
  total_alerts: number;
  active_alerts: number;
  resolved_alerts: number;
  /** Minutes from triggered to acknowledged (or resolved, when never acknowledged); 0 with none answered. */
  avg_response_time: number;
}

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
  workspace: z.string().min(1).max(200),
  sink_type: z.enum(SINK_TYPES, { error: 'Channel type must be email or telegram' }),
});
export const testSinkBodySchema = z.object({ config: sinkConfigSchema });
