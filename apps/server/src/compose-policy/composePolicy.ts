import { statSync } from 'node:fs';
import { COMPOSE_LIMITS } from '../infra/compose/composeLimits.js';
import { jailViolation, repositoryPath } from '../infra/compose/composeRawPolicy.js';
import type { PolicyViolation } from '../infra/compose/policyViolation.js';
import { checkScopedResources } from '../infra/compose/scopedResources.js';
import { JailError, type RepositoryJail } from '../infra/jail/repositoryJail.js';
import { IMAGE_PROBLEM_TEXT, imageReferenceProblem } from './imageReference.js';

/**
 * The sandbox rules for user compose projects (security brief, items 4, 12 and 13). Checked on the NORMALIZED
 * config (`compose config`), so YAML anchors, `extends` and interpolation cannot hide a forbidden key; every
 * path goes through the repository jail (real paths, symlinks followed). Every rule names the service and the
 * key, so the user knows what to change.
 */
type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Namespaces shared with the host or another container (pid and ipc: checkSharing). */
const NAMESPACE_HOST_KEYS = ['userns_mode', 'uts', 'cgroup'] as const;
const FORBIDDEN_KEYS = [
  'cap_add',
  'devices',
  'sysctls',
  'cgroup_parent',
  'device_cgroup_rules',
  'external_links',
  'runtime',
  'oom_kill_disable',
] as const;
const ALLOWED_LOG_DRIVERS = new Set(['json-file', 'local']);

/** Who is asking: the checkout's jail, and the workspace whose own images and project names are allowed. */
export interface PolicyContext {
  jail: RepositoryJail;
  workspaceId: string;
  /** The Compose project name (`slipway-{workspaceId}`): the networks and volumes it names are the workspace's. */
  projectName: string;
}

function notAllowed(service: string | null, key: string, shown: string): PolicyViolation {
  const subject = service === null ? 'The compose file' : `Service '${service}'`;
  return { service, key, message: `${subject} uses ${key}: ${shown}, which is not allowed` };
}

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Why the jail refuses `given`, or undefined when it resolves inside the repository. */
function jailRefusal(jail: RepositoryJail, given: string): JailError | undefined {
  try {
    jail.resolve(given);
    return undefined;
  } catch (error) {
    if (error instanceof JailError) return error;
    throw error;
  }
}

/** Resolves a repository path through the jail; a refusal becomes a violation naming service, key and path. */
function inRepository(
  found: PolicyViolation[],
  jail: RepositoryJail,
  where: { service: string | null; key: string; given: string; from?: string },
): string | undefined {
  try {
    return jail.resolve(where.given, where.from);
  } catch (error) {
    if (!(error instanceof JailError)) throw error;
    found.push(jailViolation(jail.root, where.service, where.key, where.given, error));
    return undefined;
  }
}

/** A volume entry in short ("src:dst:mode") or long ({type, source}) syntax, as `compose config` prints it. */
function volumeSource(entry: unknown): { type: string; source: string | undefined } {
  if (typeof entry === 'string') {
    const parts = entry.split(':');
    if (parts.length < 2) return { type: 'volume', source: undefined }; // anonymous volume
    const source = parts[0] ?? '';
    const isPath = source.startsWith('/') || source.startsWith('.') || source.startsWith('~');
    return { type: isPath ? 'bind' : 'volume', source };
  }
  if (isObj(entry)) {
    return {
      type: typeof entry.type === 'string' ? entry.type : 'volume',
      source: typeof entry.source === 'string' ? entry.source : undefined,
    };
  }
  return { type: 'unknown', source: undefined };
}

/** `volumes_from` entries: `name[:mode]`, `service:name[:mode]` (v1's normalized form) or `container:name[:mode]`. */
function volumesFromSource(entry: string): { kind: 'service' | 'container'; name: string } {
  const [first = '', second = ''] = entry.split(':');
  if (first === 'container') return { kind: 'container', name: second };
  if (first === 'service') return { kind: 'service', name: second };
  return { kind: 'service', name: first };
}

/** Keys that may join another service's namespace (`service:x`), which stays inside the project. */
const SHARED_NAMESPACE_KEYS = ['network_mode', 'pid', 'ipc'] as const;

function checkSharing(name: string, service: Obj, services: Set<string>): PolicyViolation[] {
  const found: PolicyViolation[] = [];
  for (const key of SHARED_NAMESPACE_KEYS) {
    const value = service[key];
    if (typeof value !== 'string') continue;
    const shared = /^service:(.+)$/.exec(value)?.[1];
    if (shared !== undefined) {
      // Another service of the same project; anything else is a container of someone else's.
      if (!services.has(shared))
        found.push(notAllowed(name, key, `${value} (only services of this project)`));
    } else if (key === 'network_mode') {
      // host, container:, bridge and the engine's other networks all leave the project.
      if (value !== 'none' && !value.startsWith('default')) found.push(notAllowed(name, key, value));
    } else if (value === 'host' || value.startsWith('container:')) found.push(notAllowed(name, key, value));
  }
  for (const entry of asList(service.volumes_from)) {
    const source = volumesFromSource(String(entry));
    if (source.kind === 'container' || !services.has(source.name)) {
      found.push(notAllowed(name, 'volumes_from', `${String(entry)} (only services of this project)`));
    }
  }
  return found;
}

/**
 * A bind mount is allowed when its source is inside the repository (real path, links followed; it may not exist
 * yet) and holds no link out of it. Its content is copied out of the checkout at deployment (bindMounts.ts), so
 * the container never sees the checkout itself. Host paths, `~` and anything a link leads out to are refused.
 */
function checkBindMount(name: string, source: string | undefined, jail: RepositoryJail): PolicyViolation[] {
  if (!source || source.startsWith('~')) {
    return [notAllowed(name, 'volumes', `a bind mount of ${source ?? 'a host path'}`)];
  }
  const shown = repositoryPath(jail.root, source);
  const escaping = jailRefusal(jail, source);
  if (escaping?.reason === 'outside') return [jailViolation(jail.root, name, 'volumes', source, escaping)];
  if (escaping) return [];
  const real = jail.resolve(source);
  if (!statSync(real).isDirectory()) return [];
  try {
    return jail.findEscapingLinks(real, { maxEntries: COMPOSE_LIMITS.contextEntries }).map((link) => ({
      service: name,
      key: 'volumes',
      message: `Service '${name}' uses volumes: ${shown}, which holds a link pointing outside the repository (${link.link} -> ${link.target})`,
    }));
  } catch (error) {
    if (!(error instanceof JailError)) throw error;
    return [jailViolation(jail.root, name, 'volumes', source, error)];
  }
}

function checkService(
  name: string,
  service: Obj,
  context: PolicyContext,
  services: Set<string>,
): PolicyViolation[] {
  const found: PolicyViolation[] = [];
  if (service.privileged === true || service.privileged === 'true') {
    found.push(notAllowed(name, 'privileged', 'true'));
  }
  found.push(...checkSharing(name, service, services));
  for (const key of NAMESPACE_HOST_KEYS) {
    // Sharing a namespace with the host or with another container escapes the workspace.
    const value = service[key];
    if (typeof value === 'string' && (value === 'host' || /^(container|service):/.test(value))) {
      found.push(notAllowed(name, key, value));
    }
  }
  for (const key of FORBIDDEN_KEYS) {
    const value = service[key];
    const present = Array.isArray(value)
      ? value.length > 0
      : isObj(value)
        ? Object.keys(value).length > 0
        : value;
    if (present !== undefined && present !== false && present !== null)
      found.push(notAllowed(name, key, show(value)));
  }
  for (const option of asList(service.security_opt)) {
    const text = String(option);
    if (!/^no-new-privileges(?:[:=]true)?$/.test(text)) found.push(notAllowed(name, 'security_opt', text));
  }
  for (const entry of asList(service.volumes)) {
    const { type, source } = volumeSource(entry);
    if (type === 'bind') found.push(...checkBindMount(name, source, context.jail));
    else if (type !== 'volume' && type !== 'tmpfs') {
      found.push(notAllowed(name, 'volumes', show(entry)));
    }
  }
  if (isObj(service.logging) && typeof service.logging.driver === 'string') {
    if (!ALLOWED_LOG_DRIVERS.has(service.logging.driver)) {
      found.push(notAllowed(name, 'logging.driver', service.logging.driver));
    }
  }
  if (service.build === undefined && typeof service.image === 'string') {
    const problem = imageReferenceProblem(service.image, context.workspaceId);
    if (problem) found.push(notAllowed(name, 'image', `${service.image} (${IMAGE_PROBLEM_TEXT[problem]})`));
  }
  if (isObj(service.build)) found.push(...checkBuild(name, service.build, context));
  else if (typeof service.build === 'string')
    found.push(...checkBuild(name, { context: service.build }, context));
  return found;
}

/** A service's build: where its context and Dockerfile really are, and the images it may use as cache. */
export interface BuildSource {
  service: string;
  /** Real path of the context directory, inside the repository. */
  context: string;
  /** Real path of the Dockerfile, or undefined for `dockerfile_inline`. */
  dockerfile: string | undefined;
  dockerfileGiven: string;
  inline: string | undefined;
  args: unknown;
}

function checkBuild(name: string, build: Obj, context: PolicyContext): PolicyViolation[] {
  const found: PolicyViolation[] = [];
  if (build.privileged === true) found.push(notAllowed(name, 'build.privileged', 'true'));
  // `tags` would let a build overwrite a name another tenant runs (or a shared base image's tag).
  for (const key of ['entitlements', 'ssh', 'secrets', 'additional_contexts', 'tags'] as const) {
    const value = build[key];
    if (value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0)) {
      found.push(notAllowed(name, `build.${key}`, show(value)));
    }
  }
  if (typeof build.network === 'string' && build.network !== 'default' && build.network !== 'none') {
    found.push(notAllowed(name, 'build.network', build.network));
  }
  for (const entry of asList(build.cache_from)) {
    const reference = typeof entry === 'string' ? entry.replace(/^type=registry,ref=/, '') : show(entry);
    const problem = imageReferenceProblem(reference, context.workspaceId);
    if (problem)
      found.push(notAllowed(name, 'build.cache_from', `${reference} (${IMAGE_PROBLEM_TEXT[problem]})`));
  }
  const given = typeof build.context === 'string' ? build.context : '.';
  if (/^[a-z]+:\/\//i.test(given) || given.startsWith('git@')) {
    found.push(notAllowed(name, 'build.context', `${given} (build from the repository itself)`));
    return found;
  }
  const real = inRepository(found, context.jail, { service: name, key: 'build.context', given });
  if (real !== undefined && typeof build.dockerfile === 'string' && build.dockerfile_inline === undefined) {
    inRepository(found, context.jail, {
      service: name,
      key: 'build.dockerfile',
      given: build.dockerfile,
      from: real,
    });
  }
  return found;
}

/** The builds of a checked config, with their real paths (only call after checkComposePolicy found nothing). */
export function buildSources(config: Obj, jail: RepositoryJail): BuildSource[] {
  const services = isObj(config.services) ? config.services : {};
  return Object.entries(services).flatMap(([service, raw]) => {
    if (!isObj(raw) || raw.build === undefined) return [];
    const build: Obj = isObj(raw.build) ? raw.build : { context: raw.build };
    const context = jail.resolve(typeof build.context === 'string' ? build.context : '.');
    const inline = typeof build.dockerfile_inline === 'string' ? build.dockerfile_inline : undefined;
    const dockerfileGiven = typeof build.dockerfile === 'string' ? build.dockerfile : 'Dockerfile';
    const dockerfile = inline === undefined ? jail.resolve(dockerfileGiven, context) : undefined;
    return [{ service, context, dockerfile, dockerfileGiven, inline, args: build.args }];
  });
}

/** Checks a normalized compose config against the sandbox rules. */
export function checkComposePolicy(config: unknown, context: PolicyContext): PolicyViolation[] {
  if (!isObj(config))
    return [{ service: null, key: 'services', message: 'The compose file has no services' }];
  const services = isObj(config.services) ? config.services : {};
  if (Object.keys(services).length === 0) {
    return [{ service: null, key: 'services', message: 'The compose file has no services' }];
  }
  if (Object.keys(services).length > COMPOSE_LIMITS.services) {
    return [
      {
        service: null,
        key: 'services',
        message: `The compose file defines more than ${COMPOSE_LIMITS.services} services`,
      },
    ];
  }
  const names = new Set(Object.keys(services));
  const found: PolicyViolation[] = [];
  for (const [name, service] of Object.entries(services)) {
    if (isObj(service)) found.push(...checkService(name, service, context, names));
  }
  found.push(...checkScopedResources(config, context.projectName));
  for (const section of ['secrets', 'configs'] as const) {
    for (const [name, item] of Object.entries(isObj(config[section]) ? config[section] : {})) {
      if (!isObj(item)) continue;
      if (item.external === true || isObj(item.external)) {
        found.push(notAllowed(null, `${section}.${name}.external`, 'true'));
      }
      if (typeof item.file === 'string') {
        inRepository(found, context.jail, {
          service: null,
          key: `${section}.${name}.file`,
          given: item.file,
        });
      }
      if (item.environment !== undefined) {
        found.push(notAllowed(null, `${section}.${name}.environment`, show(item.environment)));
      }
    }
  }
  return found;
}
