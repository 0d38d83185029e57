import path from 'node:path';
import { openRepositoryJail } from '../infra/jail/repositoryJail.js';
import type { NodeEngine } from '../infra/swarm/swarmCall.js';
import { ensureSwarmFile, swarmFileName } from '../infra/swarm/swarmFiles.js';
import { ensureOverlayNetwork } from '../infra/swarm/swarmNetworks.js';
import type { SwarmFileReference, SwarmServiceSpec } from '../infra/swarm/swarmServiceSpec.js';
import type { RegistryAuth } from '../infra/swarm/swarmServices.js';
import {
  applyService,
  inspectService,
  type RolloutOutcome,
  waitForCompletion,
  waitForRollout,
} from '../infra/swarm/swarmServices.js';
import type { PlannedService, SwarmPlan } from './swarmPlan.js';

/** Swarm's limit on a config's or secret's size. */
export const MAX_SWARM_FILE_BYTES = 500 * 1024;

export type PlanOutcome =
  | { kind: 'applied'; services: string[] }
  /** A service's new version failed its health checks: Swarm put its previous version back. */
  | { kind: 'rolled_back'; service: string; message: string }
  | { kind: 'failed'; service: string; message: string };

/** The secrets and configs a service mounts, made from the checkout's files (read through the jail). */
async function fileReferences(
  manager: NodeEngine,
  planned: PlannedService,
  repoDir: string,
  labels: Record<string, string>,
) {
  const jail = openRepositoryJail(repoDir);
  const secrets: SwarmFileReference[] = [];
  const configs: SwarmFileReference[] = [];
  for (const file of planned.files) {
    const data = Buffer.from(
      jail.readText(path.relative(repoDir, file.source), { maxBytes: MAX_SWARM_FILE_BYTES }),
    );
    const name = swarmFileName(file.prefix, data);
    const id = await ensureSwarmFile(manager, file.kind, name, data, labels);
    const target = { Name: file.target, UID: file.uid, GID: file.gid, Mode: file.mode };
    if (file.kind === 'secret') secrets.push({ SecretID: id, SecretName: name, File: target });
    else configs.push({ ConfigID: id, ConfigName: name, File: target });
  }
  return { secrets, configs };
}

/** Whether the running spec already is `spec` (Swarm would start no update, and none would be awaited). */
function sameSpec(current: SwarmServiceSpec, wanted: SwarmServiceSpec): boolean {
  const { TaskTemplate: a, ...restA } = current;
  const { TaskTemplate: b, ...restB } = wanted;
  const { ForceUpdate: _a, ...taskA } = a;
  const { ForceUpdate: _b, ...taskB } = b;
  return (
    JSON.stringify(sortKeys(taskA)) === JSON.stringify(sortKeys(taskB)) &&
    JSON.stringify(sortKeys(restA)) === JSON.stringify(sortKeys(restB))
  );
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => [k, sortKeys(v)]),
  );
}

/** Applies one service and waits until it converged, completed (a one-shot) or was rolled back. */
async function rollOutService(
  manager: NodeEngine,
  planned: PlannedService,
  options: { repoDir: string; auth?: RegistryAuth; serviceMs: number },
): Promise<RolloutOutcome> {
  const { secrets, configs } = await fileReferences(manager, planned, options.repoDir, planned.spec.Labels);
  const spec: SwarmServiceSpec = {
    ...planned.spec,
    TaskTemplate: {
      ...planned.spec.TaskTemplate,
      ContainerSpec: {
        ...planned.spec.TaskTemplate.ContainerSpec,
        ...(secrets.length > 0 ? { Secrets: secrets } : {}),
        ...(configs.length > 0 ? { Configs: configs } : {}),
      },
    },
  };
  const current = await inspectService(manager, spec.Name);
  // Unchanged: nothing starts, and an old update status (a rollback long ago) says nothing about now.
  if (current && sameSpec(current.spec, spec)) return { kind: 'converged', tasks: [] };
  const { created } = await applyService(manager, spec, options.auth);
  return planned.oneShot
    ? waitForCompletion(manager, spec.Name, options.serviceMs)
    : waitForRollout(manager, spec.Name, options.serviceMs, !created);
}

/**
 * Rolls a translated plan out on the cluster: the workspace's overlay networks, then the services wave by wave
 * (plan.order: a service starts once those it depends on run healthy or completed), each rolling update start-first
 * and health-gated by Swarm (a failing new version is rolled back by Swarm itself). Stops at the first service that
 * did not converge and says which.
 */
export async function applySwarmPlan(
  manager: NodeEngine,
  plan: SwarmPlan,
  options: { repoDir: string; auth?: RegistryAuth; serviceMs?: number },
): Promise<PlanOutcome> {
  for (const network of plan.networks) await ensureOverlayNetwork(manager, network);
  const byName = new Map(plan.services.map((planned) => [planned.service, planned]));
  const done: string[] = [];
  for (const wave of plan.order) {
    const outcomes = await Promise.all(
      wave.map(async (service) => {
        const planned = byName.get(service);
        if (!planned) throw new Error(`The plan has no service ${service}`);
        return {
          service,
          outcome: await rollOutService(manager, planned, {
            ...options,
            serviceMs: options.serviceMs ?? 120_000,
          }),
        };
      }),
    );
    for (const { service, outcome } of outcomes) {
      if (outcome.kind === 'rolled_back') return { kind: 'rolled_back', service, message: outcome.message };
      if (outcome.kind === 'failed') return { kind: 'failed', service, message: outcome.message };
      done.push(service);
    }
  }
  return { kind: 'applied', services: done };
}
