import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Dockerode from 'dockerode';
import tar from 'tar-fs';
import { distributeImages, type PreparedCluster } from '../cluster/clusterSetup.js';
import { translateToSwarm } from '../cluster/composeToSwarm.js';
import type { SwarmPlan } from '../cluster/swarmPlan.js';
import { runCheck } from '../compose-policy/composeCheck.js';
import { writeMaterials } from '../compose-policy/composeMaterials.js';
import { requestedReplicas } from '../compose-policy/replicaPolicy.js';
import { listServices } from '../infra/compose/composeProject.js';
import { followEngineStream } from '../infra/swarm/engineStream.js';
import { pushImage } from '../infra/swarm/registryImages.js';

/**
 * The app the cluster tests deploy: `web`, busybox's httpd built from a Dockerfile (3 replicas; its CGI asks the
 * database across the overlay), `db`, a busybox "database" answering on 5432 with what its named volume holds,
 * and `migrate`, a one-shot the web waits for (it must reach the database and exit 0).
 */
export const APP_COMPOSE = `services:
  web:
    build: .
    ports: ["8080:8080"]
    deploy:
      replicas: 3
    environment:
      GREETING: hello
    healthcheck:
      test: ["CMD-SHELL", "wget -q -O /dev/null http://127.0.0.1:8080/ || exit 1"]
      interval: 1s
      timeout: 2s
      retries: 3
    depends_on:
      db:
        condition: service_healthy
      migrate:
        condition: service_completed_successfully
  migrate:
    image: busybox:1.36
    command: ["sh", "-c", "nc -w 3 db 5432 </dev/null | grep -q stored && echo migrated"]
    depends_on:
      db:
        condition: service_healthy
  db:
    image: busybox:1.36
    command: ["sh", "-c", "[ -f /data/value ] || echo stored-in-volume > /data/value; exec nc -ll -p 5432 -e cat /data/value"]
    volumes:
      - dbdata:/data
    healthcheck:
      test: ["CMD-SHELL", "nc -w 1 127.0.0.1 5432 </dev/null | grep -q stored"]
      interval: 1s
      timeout: 2s
      retries: 5
volumes:
  dbdata:
`;

const DOCKERFILE = `FROM busybox:1.36
COPY www /www
RUN chmod +x /www/cgi-bin/*
CMD ["httpd", "-f", "-p", "8080", "-h", "/www"]
`;
const INDEX_CGI = `#!/bin/sh
printf 'Content-Type: text/plain\\r\\n\\r\\n'
echo "$GREETING from $(hostname)"
`;
const DB_CGI = `#!/bin/sh
printf 'Content-Type: text/plain\\r\\n\\r\\n'
nc -w 3 db 5432 </dev/null
`;

const WHY_CGI = `#!/bin/sh
printf 'Content-Type: text/plain\\r\\n\\r\\n'
nslookup db 127.0.0.11 2>&1
nc -w 3 db 5432 </dev/null 2>&1
echo "exit $?"
`;

/** Writes the app's repository into a new directory (removed by the caller). */
export function writeAppRepository(): string {
  const repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'slipway-cluster-app-')));
  writeFileSync(path.join(repo, 'compose.yaml'), APP_COMPOSE);
  writeFileSync(path.join(repo, 'Dockerfile'), DOCKERFILE);
  mkdirSync(path.join(repo, 'www/cgi-bin'), { recursive: true });
  writeFileSync(path.join(repo, 'www/index.html'), 'ok\n');
  writeFileSync(path.join(repo, 'www/cgi-bin/hello'), INDEX_CGI);
  writeFileSync(path.join(repo, 'www/cgi-bin/db'), DB_CGI);
  // What a replica that cannot reach the database sees, for a failing test's message.
  writeFileSync(path.join(repo, 'www/cgi-bin/why'), WHY_CGI);
  return repo;
}

/** Reads a repository's compose file the way a deployment does (the check worker's two checks). */
export async function readProject(repo: string, workspaceId: string) {
  const read = runCheck({ kind: 'read', repoDir: repo, fileName: 'compose.yaml', env: {} });
  if (read.kind !== 'read' || read.violations.length > 0) throw new Error(`refused: ${JSON.stringify(read)}`);
  await writeMaterials(repo, read.materials);
  const checked = runCheck({
    kind: 'normalized',
    repoDir: repo,
    project: read.project,
    workspaceId,
    projectName: `slipway-${workspaceId}`,
  });
  if (checked.kind !== 'normalized' || checked.violations.length > 0)
    throw new Error('refused by the policy');
  return checked.normalized;
}

/** Builds a service's image on an engine (its build context: the repository). */
export async function buildOn(docker: Dockerode, repo: string, tag: string): Promise<void> {
  const stream = await docker.buildImage(tar.pack(repo), { t: tag, rm: true });
  await followEngineStream(`build ${tag}`, stream, 120_000);
}

/**
 * Builds and pushes every image of the project once (on the manager's engine), pulls them on every node, and
 * translates the project: what a deployment of it on the cluster does before rolling out.
 */
export async function planApp(
  cluster: PreparedCluster,
  options: {
    repo: string;
    workspaceId: string;
    tag: string;
    encrypted: boolean;
    project?: Record<string, unknown>;
  },
): Promise<SwarmPlan & { timings: { buildAndPushMs: number; pullMs: number } }> {
  const started = Date.now();
  const project = options.project ?? (await readProject(options.repo, options.workspaceId));
  const services = listServices(project).filter((service) => !service.inactive);
  const raw = project.services as Record<string, Record<string, unknown>>;
  const images: Record<string, string> = {};
  const repository = (service: string) => `ws-${options.workspaceId.slice(0, 8)}/${service}`;
  for (const service of services) {
    const local = service.hasBuild
      ? `slipway-test-${options.workspaceId.slice(0, 8)}-${service.name}:${options.tag}`
      : service.image!;
    if (service.hasBuild) await buildOn(cluster.manager.docker, options.repo, local);
    images[service.name] = await pushImage(
      cluster.manager,
      local,
      { repository: repository(service.name), tag: options.tag },
      cluster.registry,
    );
  }
  const pushed = Date.now();
  await distributeImages(cluster, Object.values(images));
  const timings = { buildAndPushMs: pushed - started, pullMs: Date.now() - pushed };
  const result = translateToSwarm({
    workspaceId: options.workspaceId,
    userId: 'cluster-test',
    project,
    repoDir: options.repo,
    nodeIds: cluster.nodes.map((node) => node.id),
    images,
    replicas: Object.fromEntries(services.map((s) => [s.name, requestedReplicas(raw[s.name] ?? {})])),
    publishedPorts: Object.fromEntries(
      services.map((s) => [s.name, raw[s.name]?.ports ? s.declaredPorts : []]),
    ),
    limits: { cpusPerService: 0.5, memoryBytesPerService: 128 * 1024 * 1024 },
    encrypted: options.encrypted,
  });
  if (result.kind !== 'plan') throw new Error(result.violations.map((v) => v.message).join('\n'));
  return { ...result.plan, timings };
}

export const removeRepository = (repo: string) => rmSync(repo, { recursive: true, force: true });
