import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { workspaceMountsDir } from '../infra/compose/bindMounts.js';
import { deployAndWait, loopback } from '../test/deployments.js';
import { useEngineWorld } from '../test/engineWorld.js';
import { describeWith } from '../test/services.js';

/**
 * Bind mounts of repository paths on the real engine (issue 14): a web server configured by a read-only,
 * bind-mounted file and serving a bind-mounted directory, and a writable data directory that keeps what the
 * app wrote across a redeploy and goes with the workspace.
 */
describeWith('docker')('bind mounts from the repository', () => {
  const engine = useEngineWorld({ DEPLOY_HEALTH_TIMEOUT_SECONDS: '30' });

  it('serves a bind-mounted site with a bind-mounted config, and keeps writable data across a redeploy', async () => {
    engine.world.repo('mounted-site', {
      'compose.yaml': `services:
  web:
    image: busybox:1.36
    command: ["sh", "-c", "date +%s%N >> /data/boots && exec httpd -f -p 8080 -h /www -c /etc/httpd.conf"]
    ports: ["8080"]
    volumes:
      - ./httpd.conf:/etc/httpd.conf:ro
      - ./site:/www:ro
      - ./data:/data
`,
      'httpd.conf': 'E404:/www/missing.html\n',
      'site/index.html': '<h1>from the repository</h1>\n',
      'site/missing.html': 'custom not-found page\n',
      'data/README': 'seeded from the repository\n',
    });
    const first = await deployAndWait(engine.client, { repo: 'mounted-site' });
    expect(first.status.error).toBeNull();
    const url = loopback(first.status.data.deploymentData.metadata.urls.web!);
    expect(await (await fetch(url)).text()).toBe('<h1>from the repository</h1>\n');
    // The error page named by the bind-mounted config file.
    expect(await (await fetch(`${url}/nothing-here`)).text()).toBe('custom not-found page\n');

    const workspace = (await engine.ctx.platform.db.query.workspaces.findMany()).find(
      (w) => w.name === 'mounted-site',
    )!;
    const data = path.join(workspaceMountsDir(engine.ctx.dataDir, workspace.id), 'data', 'data');
    expect(readFileSync(path.join(data, 'README'), 'utf8')).toBe('seeded from the repository\n');
    expect(readFileSync(path.join(data, 'boots'), 'utf8').trim().split('\n')).toHaveLength(1);

    const second = await deployAndWait(engine.client, { repo: 'mounted-site', workflowType: 'redeploy' });
    expect(second.status.error).toBeNull();
    expect(readFileSync(path.join(data, 'boots'), 'utf8').trim().split('\n')).toHaveLength(2);

    const deleted = await engine.client.delete('/api/workspace-delete/mounted-site');
    expect(deleted.statusCode).toBe(200);
    expect(existsSync(workspaceMountsDir(engine.ctx.dataDir, workspace.id))).toBe(false);
  }, 360_000);
});
