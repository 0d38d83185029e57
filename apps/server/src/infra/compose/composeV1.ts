import path from 'node:path';
import { parse as parseDotEnv } from 'dotenv';
import type { RepositoryJail } from '../jail/repositoryJail.js';
import { ComposeReadError } from './composeInterpolation.js';
import { COMPOSE_LIMITS } from './composeLimits.js';
import { isObj, type Obj, toMap } from './composeMerge.js';
import { refused } from './composeRawPolicy.js';
import type { PolicyViolation } from './policyViolation.js';

/**
 * Writes the model (composeReader.ts) in the subset every Compose CLI reads, Compose v1 1.29 included: fields v1
 * does not know are translated (env_file/label_file folded into environment/labels, long depends_on reduced to
 * its condition, inline configs/secrets/Dockerfiles materialised as files) or dropped when they only concern
 * development (`develop`, `build.platforms`…); fields that would change what runs are refused instead.
 * Conditions are kept: v1 waits for service_started, service_healthy and service_completed_successfully.
 */
export const MATERIALS_DIR = '.slipway-materials';

export interface Material {
  /** Path inside the checkout, under MATERIALS_DIR. */
  relativePath: string;
  content: string;
}

interface Translation {
  jail: RepositoryJail;
  env: Record<string, string>;
  /** Services left out because they belong to a profile. */
  profiled: string[];
  materials: Material[];
  violations: PolicyViolation[];
}

const DROPPED_SERVICE_KEYS = ['develop', 'attach', 'annotations', 'pull_refresh_after', 'provider_options'];
const REFUSED_SERVICE_KEYS: Record<string, string> = {
  use_api_socket: 'is not allowed',
  gpus: 'is not allowed',
  models: 'is not supported',
  provider: 'is not supported',
  post_start: 'is not supported',
  pre_stop: 'is not supported',
};
const DROPPED_BUILD_KEYS = ['platforms', 'pull', 'no_cache', 'provenance', 'sbom', 'ulimits'];

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const asText = (value: unknown) => (typeof value === 'string' ? value : String(value));

function material(t: Translation, name: string, content: string): string {
  const relativePath = path.join(MATERIALS_DIR, name.replace(/[^A-Za-z0-9._-]/g, '_'));
  t.materials.push({ relativePath, content });
  return path.join(t.jail.root, relativePath);
}

/** `env_file` entries (read through the jail) under `environment`; variables without a value come from env. */
function environmentOf(t: Translation, service: Obj): Obj | undefined {
  if (service.env_file === undefined && service.environment === undefined) return undefined;
  const out: Obj = {};
  for (const entry of Array.isArray(service.env_file) ? service.env_file : []) {
    const file = String((entry as Obj).path);
    Object.assign(out, parseDotEnv(t.jail.readText(file, { maxBytes: COMPOSE_LIMITS.envFileBytes })));
  }
  for (const [key, value] of Object.entries(toMap(service.environment))) {
    if (value === null || value === undefined) {
      if (t.env[key] !== undefined) out[key] = t.env[key];
      else delete out[key];
    } else out[key] = asText(value);
  }
  return out;
}

function labelsOf(t: Translation, service: Obj): Obj | undefined {
  if (service.label_file === undefined && service.labels === undefined) return undefined;
  const out: Obj = {};
  for (const entry of Array.isArray(service.label_file) ? service.label_file : []) {
    const file = String((entry as Obj).path);
    Object.assign(out, parseDotEnv(t.jail.readText(file, { maxBytes: COMPOSE_LIMITS.envFileBytes })));
  }
  for (const [key, value] of Object.entries(toMap(service.labels))) out[key] = asText(value ?? '');
  return out;
}

function dependsOn(t: Translation, name: string, value: unknown, services: Obj): Obj | undefined {
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((dep) => [String(dep), {}])
    : isObj(value)
      ? Object.entries(value)
      : [];
  const out: Obj = {};
  for (const [dep, raw] of entries) {
    const options = isObj(raw) ? raw : {};
    if (!(dep in services)) {
      if (options.required === false) continue;
      const why = t.profiled.includes(dep) ? 'only started with a profile' : 'not defined';
      throw new ComposeReadError(`Service '${name}' depends on '${dep}', which is ${why}`);
    }
    out[dep] = { condition: typeof options.condition === 'string' ? options.condition : 'service_started' };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function translateBuild(t: Translation, name: string, raw: Obj): Obj {
  const build: Obj = { ...raw };
  for (const key of DROPPED_BUILD_KEYS) delete build[key];
  if (typeof build.dockerfile_inline === 'string') {
    build.dockerfile = material(t, `Dockerfile.${name}`, build.dockerfile_inline);
    delete build.dockerfile_inline;
  }
  return build;
}

function translatePort(entry: unknown): unknown {
  if (!isObj(entry)) return entry;
  const { name: _name, app_protocol: _protocol, ...rest } = entry;
  return rest;
}

function translateVolume(t: Translation, name: string, entry: unknown): unknown {
  if (!isObj(entry)) return entry;
  const out: Obj = { ...entry };
  if (isObj(out.bind)) {
    const { propagation } = out.bind;
    if (propagation === undefined) delete out.bind;
    else out.bind = { propagation };
  }
  if (isObj(out.volume) && out.volume.subpath !== undefined) {
    t.violations.push(
      refused(name, 'volumes', `volume.subpath ${show(out.volume.subpath)}`, 'is not supported'),
    );
  }
  return out;
}

function translateService(t: Translation, name: string, raw: Obj, services: Obj): Obj {
  const service: Obj = { ...raw };
  for (const key of DROPPED_SERVICE_KEYS) delete service[key];
  for (const [key, why] of Object.entries(REFUSED_SERVICE_KEYS)) {
    if (service[key] !== undefined && service[key] !== false) {
      t.violations.push(refused(name, key, show(service[key]), why));
    }
  }
  const environment = environmentOf(t, service);
  const labels = labelsOf(t, service);
  delete service.env_file;
  delete service.label_file;
  if (environment) service.environment = environment;
  if (labels) service.labels = labels;
  const depends = dependsOn(t, name, service.depends_on, services);
  if (depends) service.depends_on = depends;
  else delete service.depends_on;
  if (isObj(service.build)) service.build = translateBuild(t, name, service.build);
  if (Array.isArray(service.ports)) service.ports = service.ports.map(translatePort);
  if (Array.isArray(service.volumes))
    service.volumes = service.volumes.map((v) => translateVolume(t, name, v));
  if (isObj(service.healthcheck)) {
    const { start_interval: _interval, ...healthcheck } = service.healthcheck;
    service.healthcheck = healthcheck;
  }
  return service;
}

/** Top-level configs and secrets given by `content` or `environment` become files in the checkout. */
function materialiseSection(t: Translation, section: 'configs' | 'secrets', items: Obj): Obj {
  const out: Obj = {};
  for (const [name, item] of Object.entries(items)) {
    if (!isObj(item)) continue;
    const { content, environment, ...rest } = item;
    if (typeof content === 'string')
      out[name] = { ...rest, file: material(t, `${section}.${name}`, content) };
    else if (typeof environment === 'string') {
      const value = t.env[environment];
      if (value === undefined) {
        throw new ComposeReadError(`${section}.${name} reads the variable ${environment}, which is not set`);
      }
      out[name] = { ...rest, file: material(t, `${section}.${name}`, value) };
    } else out[name] = item;
  }
  return out;
}

export function translateForComposeV1(
  model: Obj,
  options: { jail: RepositoryJail; env: Record<string, string>; profiled: string[] },
): { project: Obj; materials: Material[]; violations: PolicyViolation[] } {
  const t: Translation = { ...options, materials: [], violations: [] };
  const { name: _name, version: _version, include: _include, services: rawServices, ...rest } = model;
  const services = isObj(rawServices) ? rawServices : {};
  const out: Obj = {};
  for (const [name, service] of Object.entries(services)) {
    out[name] = isObj(service) ? translateService(t, name, service, services) : service;
  }
  const project: Obj = { services: out, ...rest };
  for (const section of ['configs', 'secrets'] as const) {
    if (isObj(project[section])) project[section] = materialiseSection(t, section, project[section]);
  }
  return { project, materials: t.materials, violations: t.violations };
}
