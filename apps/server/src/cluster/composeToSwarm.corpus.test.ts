import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../compose-policy/composeCheck.js';
import { writeMaterials } from '../compose-policy/composeMaterials.js';
import { requestedReplicas } from '../compose-policy/replicaPolicy.js';
import { COMPOSE_FILE_NAMES, listServices } from '../infra/compose/composeProject.js';
import { translateToSwarm } from './composeToSwarm.js';

/**
 * Every file of the compose corpus (test/fixtures/compose-corpus, whose one-VM verdicts composeCorpus.test.ts
 * keeps) on a cluster of three nodes: a file refused on one VM is refused before any translation; an accepted
 * file is translated, or refused only with sentences that each name a key Swarm cannot honour. The table holds
 * each file's verdict on three nodes.
 */
const CORPUS = path.resolve(import.meta.dirname, '../test/fixtures/compose-corpus');
const WS = '11111111-2222-3333-4444-555555555555';
const NODES = ['node-a', 'node-b', 'node-c'];
const work = mkdtempSync(path.join(tmpdir(), 'slipway-swarm-corpus-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** On three nodes: 'plan', or the refusal's sentences. Files refused on one VM are not listed (see below). */
const ON_THREE_NODES: Record<string, 'plan' | string[]> = {
  '01-web-postgres-redis': 'plan',
  '02-nginx-proxy-config-file': 'plan',
  '03-writable-config-and-data-dirs': [
    "Service 'app' uses volumes: ./config:/app/config, which a cluster cannot honour: a writable bind mount keeps its data on one node (use a named volume)",
    "Service 'app' uses volumes: ./data:/var/lib/app, which a cluster cannot honour: a writable bind mount keeps its data on one node (use a named volume)",
  ],
  '04-long-syntax-bind': [
    "Service 'grafana' uses volumes: ./grafana-data:/var/lib/grafana, which a cluster cannot honour: a writable bind mount keeps its data on one node (use a named volume)",
  ],
  '05-spec-top-level-name-develop-platforms': 'plan',
  '06-env-file-long-syntax': 'plan',
  '07-depends-on-long-syntax': 'plan',
  '08-one-shot-migration': 'plan',
  '09-anchors-and-extension-fields': 'plan',
  '10-override-file': 'plan',
  '11-extends-same-file': 'plan',
  '12-extends-other-file': 'plan',
  '13-include-inside-repository': 'plan',
  '14-profiles-default-only': 'plan',
  '15-interpolation-defaults': 'plan',
  '16-interpolation-required-provided': 'plan',
  '17-yaml11-traps': 'plan',
  '18-restart-policies': 'plan',
  '19-network-mode-service': [
    "Service 'sidecar' uses network_mode: service:app, which a cluster cannot honour: Swarm runs every replica in a network namespace of its own",
  ],
  '20-configs-and-secrets': 'plan',
  '21-dockerfile-inline': 'plan',
  '22-expose-only-broker-and-worker': 'plan',
  '23-mysql-cms': [
    "Service 'cms' uses volumes: ./wp-content:/var/www/html/wp-content, which a cluster cannot honour: a writable bind mount keeps its data on one node (use a named volume)",
  ],
  '24-healthcheck-start-interval': 'plan',
  '25-ports-long-syntax-names': 'plan',
  '26-label-file': 'plan',
  '27-environment-from-workspace': 'plan',
  '42-fixed-volume-and-network-names': 'plan',
  '43-pid-ipc-service-sidecar': [
    "Service 'profiler' uses pid: service:app, which a cluster cannot honour: Swarm cannot share a process namespace between replicas, which may run on different nodes",
    "Service 'profiler' uses ipc: service:app, which a cluster cannot honour: Swarm cannot share an IPC namespace between replicas, which may run on different nodes",
  ],
};

type Verdict = { kind: 'refused-on-one-vm' } | { kind: 'plan' } | { kind: 'refused'; messages: string[] };

async function verdictOf(name: string): Promise<Verdict> {
  const repo = path.join(work, name);
  cpSync(path.join(CORPUS, name, 'repo'), repo, { recursive: true, verbatimSymlinks: true });
  const envFile = path.join(CORPUS, name, 'env.json');
  const env = existsSync(envFile)
    ? (JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>)
    : {};
  const fileName = COMPOSE_FILE_NAMES.find((candidate) => existsSync(path.join(repo, candidate)))!;
  const read = runCheck({ kind: 'read', repoDir: repo, fileName, env });
  if (read.kind !== 'read' || read.violations.length > 0) return { kind: 'refused-on-one-vm' };
  await writeMaterials(repo, read.materials);
  const checked = runCheck({
    kind: 'normalized',
    repoDir: repo,
    project: read.project,
    workspaceId: WS,
    projectName: `slipway-${WS}`,
  });
  if (checked.kind !== 'normalized' || checked.violations.length > 0) return { kind: 'refused-on-one-vm' };
  const project = checked.normalized;
  const services = listServices(project).filter((service) => !service.inactive);
  const raw = project.services as Record<string, Record<string, unknown>>;
  const translation = translateToSwarm({
    workspaceId: WS,
    userId: 'user-1',
    project,
    repoDir: repo,
    nodeIds: NODES,
    images: Object.fromEntries(
      services.map((s) => [s.name, `10.250.0.11:5000/ws/${s.name}@sha256:${'0'.repeat(64)}`]),
    ),
    replicas: Object.fromEntries(services.map((s) => [s.name, requestedReplicas(raw[s.name] ?? {})])),
    publishedPorts: Object.fromEntries(services.map((s) => [s.name, s.declaredPorts])),
    limits: { cpusPerService: 0.5, memoryBytesPerService: 256 * 1024 * 1024 },
    encrypted: false,
  });
  return translation.kind === 'plan'
    ? { kind: 'plan' }
    : { kind: 'refused', messages: translation.violations.map((v) => v.message) };
}

const cases = readdirSync(CORPUS).sort();

describe('the compose corpus on three nodes', () => {
  it.each(cases)('%s', async (name) => {
    const verdict = await verdictOf(name);
    const refusedOnOneVm = existsSync(path.join(CORPUS, name, 'refused.txt'));
    if (refusedOnOneVm) {
      expect(verdict.kind).toBe('refused-on-one-vm');
      return;
    }
    if (verdict.kind === 'refused-on-one-vm') throw new Error(`${name} is accepted on one VM`);
    if (verdict.kind === 'refused') {
      // Only keys Swarm cannot honour, each named with its service.
      for (const message of verdict.messages) {
        expect(message).toMatch(/^Service '[^']+' uses [a-z_.]+[: ].*cannot honour/);
      }
    }
    expect(verdict.kind === 'plan' ? 'plan' : verdict.messages).toEqual(ON_THREE_NODES[name]);
  });
});
