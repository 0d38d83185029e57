import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBackupAlerts } from '../backups/backupAlerts.js';
import {
  insertWorkspace,
  removeWorkspaceContainers,
  runServiceContainer,
  testDocker,
} from '../test/runningWorkspaces.js';
import { describeWith } from '../test/services.js';
import { type LoopbackSmtp, startLoopbackSmtp } from '../test/smtp.js';
import type { TestClient } from '../test/testClient.js';
import { createTestContext, signInNewUser, type TestContext } from '../test/testPlatform.js';
import type { WorkspaceRow } from '../workspaces/workspacesRepository.js';
import { createAlertsRepository } from './alertsRepository.js';

const docker = testDocker();

/** Issue 38, item 5: an alert says what happened — only its owner resolves it, and it carries the newest cause. */
describeWith('docker')('what an open alert says', () => {
  let ctx: TestContext;
  let smtp: LoopbackSmtp;
  let owner: { client: TestClient; userId: string };
  let workspace: WorkspaceRow;

  const active = async () =>
    (await owner.client.get(`/api/alerts-active/${workspace.name}`)).json() as {
      alert_type: string;
      description: string;
    }[];
  const mails = () => smtp.messages.filter((mail) => mail.to.includes(`${workspace.name}@example.com`));

  beforeAll(async () => {
    smtp = await startLoopbackSmtp();
    ctx = await createTestContext({ env: { SMTP_URL: smtp.url, HEALTH_CHECK_INTERVAL_MS: '600000' } });
    owner = await signInNewUser(ctx);
    workspace = await insertWorkspace(ctx.platform, { userId: owner.userId });
    await owner.client.put(`/api/alerts/config/${workspace.name}`, {
      global_enabled: true,
      rules: [],
      sinks: [{ sink_type: 'email', enabled: true, config: { to_email: `${workspace.name}@example.com` } }],
    });
    // A healthy service: the checks find nothing wrong with the workspace.
    await runServiceContainer(docker, workspace, 'web', 'while true; do sleep 1; done');
  });

  afterAll(async () => {
    await removeWorkspaceContainers(docker, workspace.id);
    await ctx?.close();
    await smtp?.close();
  });

  it("keeps a failed backup's alert open through the health checks until a backup verifies", async () => {
    const backupAlerts = createBackupAlerts(ctx.platform.runningApps.alerts);
    await backupAlerts.failed(workspace, 'restic: the repository is full');
    const monitor = ctx.platform.runningApps.healthMonitor;
    for (let pass = 0; pass < 3; pass++) {
      await monitor.checkAll();
      await monitor.check(workspace);
    }
    expect((await active()).map((alert) => alert.alert_type)).toEqual(['backup_failed']);

    await backupAlerts.verified(workspace);
    expect(await active()).toEqual([]);
    const [resolved] = (await owner.client.get(`/api/alerts-recent/${workspace.name}?hours=1`)).json();
    expect(resolved).toMatchObject({ alert_type: 'backup_failed', state: 'resolved', resolved_by: 'system' });
  });

  it('gives an open alert the cause of the newest failure merged into it, and notifies once', async () => {
    const backupAlerts = createBackupAlerts(ctx.platform.runningApps.alerts);
    const before = mails().length;
    await backupAlerts.failed(workspace, 'restic: the repository is full');
    await backupAlerts.failed(workspace, 'pg_dump: connection refused');
    expect((await active()).map((alert) => alert.description)).toEqual(['pg_dump: connection refused']);
    await smtp.waitFor(
      (mail) => mail.to.includes(`${workspace.name}@example.com`) && mail.text.includes('full'),
    );
    expect(mails().length - before).toBe(1);
    await backupAlerts.verified(workspace);
  });

  it('raises nothing, and throws nothing, for a workspace deleted meanwhile', async () => {
    const alerts = createAlertsRepository(ctx.platform.db);
    const gone = {
      workspaceId: randomUUID(),
      fingerprint: 'container_crashed:web',
      title: 'Service web crashed',
      description: 'exit code 1',
      alertType: 'container_crashed',
      severity: 'critical' as const,
      service: 'web',
    };
    await expect(alerts.raise(gone)).resolves.toBeUndefined();
    await expect(alerts.record(gone)).resolves.toBeUndefined();
  });
});
