/**
 * Every timer that repeats, in one table: its name (logged with every failed run), how often it runs, which
 * replicas run it, and when its first run comes. The areas export the bodies; `scheduledTask` /
 * `scheduledWhileLeaseHeld` (scheduledTask.ts) run one by name — the platform the process-wide ones, an area
 * the ones inside a lease it holds (and deploy-on-push its deployer). An interval written as `configured`
 * comes from the config (or a test) through whoever starts the task.
 */
export const SCHEDULE = {
  'run-reaper': {
    everyMs: 'configured', // two heartbeats (DEPLOY_HEARTBEAT_SECONDS)
    // Durable runs (deployments, backups, restores) whose process died are taken again and resumed. Every
    // worker process, no lease: a dead lease holder would hold the reaping off, and each kind's claim lets one
    // caller win each run.
    runsIn: 'every replica',
    failure: 'looking for runs of dead workers failed',
  },
  'ingress-routes': {
    everyMs: 10_000,
    runsIn: { lease: 'ingress-routes' },
    failure: 'route check failed',
  },
  'push-deployer': {
    everyMs: 1_000,
    runsIn: { lease: 'push-deployer' },
    failure: 'push deploy check failed',
  },
  'preview-deployer': {
    // Pull request events into preview deployments, removals and states (and local mode's `pr/{n}` branches).
    everyMs: 1_000,
    runsIn: { lease: 'preview-deployer' },
    failure: 'preview check failed',
  },
  'preview-sweep': {
    everyMs: 60 * 60 * 1000,
    runsIn: { lease: 'preview-sweep' },
    failure: 'preview sweep failed',
  },
  'workspace-deletions': {
    // Deletions that did not finish (an engine that did not answer, a restart): tried again until the row is gone.
    everyMs: 60_000,
    runsIn: { lease: 'workspace-deletions' },
    failure: 'resuming workspace deletions failed',
  },
  'billing-lapse-sweeper': {
    everyMs: 60 * 60 * 1000,
    runsIn: { lease: 'billing-lapse-sweeper' },
    failure: 'lapse sweep failed',
  },
  'custom-domain-checks': {
    // Claims whose next check is due (custom-domains/checkSchedule.ts backs each off): a batch per run.
    everyMs: 15_000,
    runsIn: { lease: 'custom-domain-checks' },
    failure: 'custom domain checks failed',
  },
  'backup-scheduler': {
    // Backups due by their workspace's schedule (daily or cron, backups/backupSchedule.ts), and missed schedules
    // alerted.
    everyMs: 30_000,
    runsIn: { lease: 'backup-scheduler' },
    failure: 'backup schedule check failed',
  },
  'backup-recheck': {
    // Verified backups read back in full, the longest unread first (backups/backupRecheck.ts): damaged ones
    // are marked and alerted.
    everyMs: 10 * 60_000,
    firstRunAfterInterval: true,
    runsIn: { lease: 'backup-recheck' },
    failure: 're-checking old backups failed',
  },
  'metric-sampler': {
    everyMs: 'configured', // METRIC_SAMPLE_INTERVAL_MS
    runsIn: { lease: 'metric-sampler' },
    failure: 'sampling failed',
  },
  'log-engine-refresh': {
    everyMs: 15_000,
    // Every replica looks for engines; the engines' leases decide which replica collects each one's logs.
    runsIn: 'every replica',
    failure: 'listing workspace engines failed',
  },
  'log-prune': {
    everyMs: 10 * 60_000,
    firstRunAfterInterval: true,
    runsIn: 'every replica',
    failure: 'pruning logs failed',
  },
  'log-resync': {
    everyMs: 30_000,
    runsIn: { insideLease: 'log-collector:{engine}' },
    failure: 'listing containers for logs failed',
  },
  'health-checks': {
    everyMs: 'configured', // HEALTH_CHECK_INTERVAL_MS
    runsIn: { insideLease: 'health-monitor' },
    failure: 'health checks failed',
  },
  'recovery-checks': {
    everyMs: 1_000,
    firstRunAfterInterval: true,
    runsIn: { insideLease: 'health-monitor' },
    failure: 'recovery checks failed',
  },
  'forget-old-events': {
    everyMs: 10 * 60_000, // the restart window (alerts/healthChecks.ts RESTART_WINDOW_MS)
    firstRunAfterInterval: true,
    runsIn: { insideLease: 'health-monitor' },
    failure: 'forgetting old events failed',
  },
} as const satisfies Record<string, ScheduleEntry>;

export interface ScheduleEntry {
  /** Milliseconds between runs, or `configured`: the area passes it (from the config, or a test's). */
  everyMs: number | 'configured';
  /**
   * `every replica`; `{ lease }`: only the replica holding that lease (scheduledWhileLeaseHeld holds it);
   * `{ insideLease }`: started and stopped by the area when it gains and loses a lease it holds itself.
   */
  runsIn: 'every replica' | { lease: string } | { insideLease: string };
  /** The first run comes one interval after the start rather than at once. */
  firstRunAfterInterval?: boolean;
  /** The message a failed run is logged with. */
  failure: string;
}

export type ScheduledTaskName = keyof typeof SCHEDULE;
