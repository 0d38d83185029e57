import { expect, it } from 'vitest';
import { LABELS } from '../infra/docker/conventions.js';
import { tailContainerLogs } from '../infra/docker/projectResources.js';
import { containersOf, deployAndWait, docker, loopback, TCP_STAND_INS } from '../test/deployments.js';
import { useEngineWorld } from '../test/engineWorld.js';
import { describeWith } from '../test/services.js';

const yamlString = (text: string) => JSON.stringify(text);

/** A reverse proxy in a few lines of shell: each request is answered with the page of the upstream its file names. */
const PROXY_SCRIPT = `#!/bin/sh
read -r request
while read -r header; do
  header=$(printf '%s' "$header" | tr -d '\\r')
  [ -z "$header" ] && break
done
body=$(wget -qO- "http://$(cat /etc/proxy/upstream)/")
printf 'HTTP/1.0 200 OK\\r\\nContent-Type: text/html\\r\\nContent-Length: %s\\r\\n\\r\\n%s' "\${#body}" "$body"
`;

const servicesOf = async (workspaceId: string) =>
  (await containersOf(workspaceId))
    .filter((c) => c.State === 'running')
    .map((c) => c.Labels[LABELS.composeService])
    .sort();

/**
 * Issue 14: app shapes users bring, deployed for real as their authors wrote them — a reverse proxy configured
 * by bind-mounted files in front of an app that keeps its data in a writable bind mount; a project that uses
 * the Compose Specification's include, extends, profiles, long env_file and anchors; a web and a worker that
 * wait for a healthy broker speaking TCP.
 */
describeWith('docker')('real-world compose shapes on the real engine', () => {
  const engine = useEngineWorld({ DEPLOY_HEALTH_TIMEOUT_SECONDS: '60' });
  const workspaceOf = async (name: string) =>
    (await engine.ctx.platform.db.query.workspaces.findMany()).find((w) => w.name === name)!;

  it('serves an app through a proxy configured by bind-mounted files; the app keeps its data across a redeploy', async () => {
    const proxied = (version: string) =>
      engine.world.repo('proxied', {
        'compose.yaml': `services:
  proxy:
    image: busybox:1.36
    command: ["sh", "-c", "cp /etc/proxy/proxy.sh /proxy.sh && chmod +x /proxy.sh && exec nc -ll -p 8080 -e /proxy.sh"]
    ports: ["8080"]
    volumes:
      - ./proxy/proxy.sh:/etc/proxy/proxy.sh:ro
      - ./proxy/upstream:/etc/proxy/upstream:ro
    depends_on: [app]
  app:
    image: busybox:1.36
    command: ["sh", "-c", ${yamlString(`date >> /data/boots && mkdir -p /srv && echo "app ${version} boot $$(wc -l < /data/boots)" > /srv/index.html && exec httpd -f -p 3000 -h /srv`)}]
    expose: ["3000"]
    volumes:
      - ./data:/data
`,
        'proxy/proxy.sh': PROXY_SCRIPT,
        'proxy/upstream': 'app:3000\n',
        'data/.keep': '',
      });
    proxied('v1');
    const first = await deployAndWait(engine.client, { repo: 'proxied' });
    expect(first.status.error).toBeNull();
    // Only the proxy is public: the app is reached by its neighbour alone.
    const urls = first.status.data.deploymentData.metadata.urls;
    expect(Object.keys(urls)).toEqual(['proxy']);
    expect(await (await fetch(loopback(urls.proxy!))).text()).toBe('app v1 boot 1');

    // A new version of the app: it starts again on the data the first one wrote.
    proxied('v2');
    const second = await deployAndWait(engine.client, { repo: 'proxied', workflowType: 'redeploy' });
    expect(second.status.error).toBeNull();
    expect(second.status.data.deploymentData.metadata.urls.proxy).toBe(urls.proxy);
    expect(await (await fetch(loopback(urls.proxy!))).text()).toBe('app v2 boot 2');
  });

  it('deploys a project written with include, extends, profiles, a long env_file and anchors', async () => {
    engine.world.repo('spec-shaped', {
      'compose.yaml': `name: whatever-the-author-called-it
x-base: &base
  image: busybox:1.36
  restart: unless-stopped
include:
  - workers/compose.yaml
services:
  web:
    <<: *base
    command: ["sh", "-c", ${yamlString('mkdir -p /www && echo "$$GREETING from $$APP_ENV" > /www/index.html && exec httpd -f -p 8080 -h /www')}]
    ports: ["8080"]
    env_file:
      - path: ./web.env
      - path: ./local.env
        required: false
    environment:
      APP_ENV: \${APP_ENV:-production}
  debug:
    <<: *base
    profiles: [debug]
    command: ["sleep", "3600"]
`,
      'web.env': 'GREETING=hello\n',
      'workers/compose.yaml': `services:
  worker:
    extends:
      file: ./base.yaml
      service: base
    command: ["sh", "-c", "while true; do sleep 1; done"]
`,
      'workers/base.yaml': 'services:\n  base:\n    image: busybox:1.36\n',
    });
    const { status } = await deployAndWait(engine.client, { repo: 'spec-shaped' });
    expect(status.error).toBeNull();
    expect(await (await fetch(loopback(status.data.deploymentData.metadata.urls.web!))).text()).toBe(
      'hello from production\n',
    );
    // The included worker runs; the service behind a profile does not.
    expect(await servicesOf((await workspaceOf('spec-shaped')).id)).toEqual(['web', 'worker']);
  });

  it('starts a web and a worker once their TCP broker reports healthy', async () => {
    engine.world.repo('queued', {
      'compose.yaml': `services:
  broker:
    image: busybox:1.36
    command: ["sh", "-c", ${yamlString(TCP_STAND_INS.cache.replaceAll('$', '$$'))}]
    healthcheck:
      test: ["CMD-SHELL", "echo PING | nc -w 1 127.0.0.1 6379 | grep -q ERR"]
      interval: 1s
      retries: 30
  worker:
    image: busybox:1.36
    command: ["sh", "-c", "echo PING | nc -w 1 broker 6379 && echo connected to the broker && exec sleep 3600"]
    depends_on:
      broker:
        condition: service_healthy
  web:
    image: busybox:1.36
    command: ["sh", "-c", "mkdir -p /www && echo queued > /www/index.html && exec httpd -f -p 8080 -h /www"]
    ports: ["8080"]
    depends_on:
      broker:
        condition: service_healthy
`,
    });
    const { status } = await deployAndWait(engine.client, { repo: 'queued' });
    expect(status.error).toBeNull();
    expect(await (await fetch(loopback(status.data.deploymentData.metadata.urls.web!))).text()).toBe(
      'queued\n',
    );
    const workspace = await workspaceOf('queued');
    expect(await servicesOf(workspace.id)).toEqual(['broker', 'web', 'worker']);
    const worker = (await containersOf(workspace.id)).find(
      (c) => c.Labels[LABELS.composeService] === 'worker',
    )!;
    expect(await tailContainerLogs(docker, worker.Id)).toContain('connected to the broker');
  });
});
