import type { AlertSeverity, AlertStatistics, AlertView } from '@slipway/contract';
import type { AlertRow } from './alertsRepository.js';

export function presentAlert(row: AlertRow): AlertView {
  return {
    alert_id: row.id,
    title: row.title,
    description: row.description,
    alert_type: row.alertType,
    severity: row.severity as AlertSeverity,
    state: row.state === 'active' ? 'active' : 'resolved',
    service: row.service,
    triggered_at: row.triggeredAt.toISOString(),
    acknowledged_at: row.acknowledgedAt?.toISOString() ?? null,
    acknowledged_by: row.acknowledgedBy,
    resolved_at: row.resolvedAt?.toISOString() ?? null,
    resolved_by: row.resolvedBy,
  };
}

/** Response time: from triggered to the first human or system answer (acknowledged, else resolved). */
export function alertStatistics(rows: AlertRow[]): AlertStatistics {
  const answered = rows
    .map((row) => {
      const answer = row.acknowledgedAt ?? row.resolvedAt;
      return answer ? (answer.getTime() - row.triggeredAt.getTime()) / 60_000 : undefined;
    })
    .filter((minutes): minutes is number => minutes !== undefined);
  const average = answered.length > 0 ? answered.reduce((sum, value) => sum + value, 0) / answered.length : 0;
  return {
    total_alerts: rows.length,
    active_alerts: rows.filter((row) => row.state === 'active').length,
    resolved_alerts: rows.filter((row) => row.state === 'resolved').length,
    avg_response_time: Math.round(Math.max(0, average) * 10) / 10,
  };
}
