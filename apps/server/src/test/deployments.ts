import { randomUUID } from 'node:crypto';
import { parseLogStreamLine, type WorkflowStatus } from '@slipway/contract';
import Docker from 'dockerode';
import { workspaces } from '../infra/db/schema.js';
import { LABELS } from '../infra/docker/conventions.js';
import { removeProjectResources } from '../infra/docker/projectResources.js';
import type { TestClient } from './testClient.js';
import type { TestContext } from './testPlatform.js';

export const docker = new Docker({ socketPath: '/var/run/docker.sock' });

/** Starts a deployment through the API and waits for it to finish; returns the final status. */
interface DeploymentStart {
  owner?: string;
  repo: string;
  branch?: string;
  vmSize?: string;
  workflowType?: 'deploy' | 'redeploy';
}

/** Starts a deployment through the API and returns its session and deployment ids. */
export async function startDeployment(client: TestClient, body: DeploymentStart) {
  const sessionId = randomUUID();
  const started = await client.post('/api/workflow/deployment/start', {
    sessionId,
    owner: 'operator',
    branch: 'main',
    vmSize: 'Standard_B2ats_v2',
    ...body,
  });
  if (started.statusCode !== 200) throw new Error(`start failed: ${started.statusCode} ${started.body}`);
  const { deploymentId } = started.json() as { deploymentId: string };
  return { sessionId, deploymentId };
}

/** Polls a started deployment's status until it ends. */
export async function waitForDeployment(
  client: TestClient,
  { sessionId, deploymentId }: { sessionId: string; deploymentId: string },
  timeoutMs = 150_000,
): Promise<{ sessionId: string; deploymentId: string; status: WorkflowStatus }> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await client.get(`/api/workflow/deployment/status/${sessionId}`);
    const status = response.json() as WorkflowStatus;
    if (status.state !== 'started') return { sessionId, deploymentId, status };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`deployment ${deploymentId} did not finish in ${timeoutMs} ms`);
}

export async function deployAndWait(client: TestClient, body: DeploymentStart, timeoutMs = 150_000) {
  return waitForDeployment(client, await startDeployment(client, body), timeoutMs);
}

export const containersOf = (workspaceId: string) =>
  docker.listContainers({ all: true, filters: { label: [`${LABELS.workspaceId}=${workspaceId}`] } });

/** Removes everything the test's workspaces started, whatever state they were left in. */
export async function cleanUpWorkspaces(ctx: TestContext) {
  for (const workspace of await ctx.platform.db.select().from(workspaces)) {
    await removeProjectResources(docker, workspace.id, { volumes: true, images: true });
  }
}

/** `http://localhost:port` → `http://127.0.0.1:port`: ports are published on IPv4 loopback only. */
export const loopback = (url: string) => url.replace('//localhost:', '//127.0.0.1:');

/** Stand-ins that speak TCP but not HTTP, the way PostgreSQL and Redis answer an HTTP request. */
export const TCP_STAND_INS = {
  /** Reads the first bytes and hangs up without a word, like PostgreSQL given a bad startup packet. */
  db: `printf '#!/bin/sh\\nhead -c 8 >/dev/null\\n' > /db.sh && chmod +x /db.sh && exec nc -ll -p 5432 -e /db.sh`,
  /** Answers a line with a Redis error, which is not HTTP. */
  cache: `printf '#!/bin/sh\\nread line\\nprintf -- "-ERR unknown command\\\\r\\\\n"\\n' > /c.sh && chmod +x /c.sh && exec nc -ll -p 6379 -e /c.sh`,
};

/** A two-service app whose web service (a built page) runs `webCommand`, beside a store on a named volume. */
export const shopVersion = (page: string, webCommand: string) => ({
  'compose.yaml': `services:
  web:
    build: ./web
    command: ["sh", "-c", ${JSON.stringify(webCommand)}]
    ports: ["8080"]
  store:
    image: busybox:1.36
    command: ["sh", "-c", "while true; do sleep 1; done"]
    expose: ["6379"]
    volumes: ["data:/data"]
volumes:
  data:
`,
  'web/Dockerfile': `FROM busybox:1.36\nRUN mkdir -p /www && echo '${page}' > /www/index.html\n`,
});
export const SERVE_PAGE = 'exec httpd -f -p 8080 -h /www';
export const NEVER_LISTENS = 'echo starting; exec sleep 3600';

/** The log text of a log stream's body (every stream: `data: {ts}\t{service}\t{JSON payload}`), a line each. */
export function streamedLogLines(body: string): string[] {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => parseLogStreamLine(line.slice(6))?.log ?? '');
}
