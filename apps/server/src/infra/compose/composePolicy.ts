import path from 'node:path';

/**
 * The sandbox rules for user compose projects (security brief, item 4). Checked on the NORMALIZED config
 * (`compose config`), so YAML anchors, `extends` and interpolation cannot hide a forbidden key.
 * Every rule names the service and the key, so the user knows what to change.
 */
export interface PolicyViolation {
  service: string | null;
  key: string;
  message: string;
}

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const NAMESPACE_HOST_KEYS = ['pid', 'ipc', 'userns_mode', 'uts', 'cgroup'] as const;
const FORBIDDEN_KEYS = [
  'cap_add',
  'devices',
  'sysctls',
  'cgroup_parent',
  'device_cgroup_rules',
  'volumes_from',
  'external_links',
  'runtime',
  'oom_kill_disable',
] as const;
const ALLOWED_LOG_DRIVERS = new Set(['json-file', 'local']);
const ALLOWED_NETWORK_DRIVERS = new Set(['bridge', 'overlay']);

/** Images Slipway builds for workspaces; on a shared engine another workspace's image is off limits. */
export const isWorkspaceImage = (reference: string) => /(^|\/)slipway-/i.test(reference.trim());

function notAllowed(service: string | null, key: string, shown: string): PolicyViolation {
  const subject = service === null ? 'The compose file' : `Service '${service}'`;
  return { service, key, message: `${subject} uses ${key}: ${shown}, which is not allowed` };
}

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** True when `candidate` (absolute) is inside `root` (absolute). */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
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

function checkService(name: string, service: Obj, projectDir: string | undefined): PolicyViolation[] {
  const found: PolicyViolation[] = [];
  if (service.privileged === true || service.privileged === 'true') {
    found.push(notAllowed(name, 'privileged', 'true'));
  }
  const networkMode = service.network_mode;
  if (typeof networkMode === 'string' && networkMode !== 'none' && !networkMode.startsWith('default')) {
    found.push(notAllowed(name, 'network_mode', networkMode));
  }
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
    if (type === 'bind' || type === 'npipe') {
      found.push(notAllowed(name, 'volumes', `a bind mount of ${source ?? 'a host path'}`));
    } else if (type !== 'volume' && type !== 'tmpfs') {
      found.push(notAllowed(name, 'volumes', show(entry)));
    }
  }
  if (isObj(service.logging) && typeof service.logging.driver === 'string') {
    if (!ALLOWED_LOG_DRIVERS.has(service.logging.driver)) {
      found.push(notAllowed(name, 'logging.driver', service.logging.driver));
    }
  }
  if (service.build === undefined && typeof service.image === 'string' && isWorkspaceImage(service.image)) {
    found.push(notAllowed(name, 'image', `${service.image} (images of other workspaces)`));
  }
  if (isObj(service.build)) found.push(...checkBuild(name, service.build, projectDir));
  else if (typeof service.build === 'string')
    found.push(...checkBuild(name, { context: service.build }, projectDir));
  return found;
}

function checkBuild(name: string, build: Obj, projectDir: string | undefined): PolicyViolation[] {
  const found: PolicyViolation[] = [];
  if (build.privileged === true) found.push(notAllowed(name, 'build.privileged', 'true'));
  for (const key of ['entitlements', 'ssh', 'secrets', 'additional_contexts'] as const) {
    const value = build[key];
    if (value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0)) {
      found.push(notAllowed(name, `build.${key}`, show(value)));
    }
  }
  if (typeof build.network === 'string' && build.network !== 'default' && build.network !== 'none') {
    found.push(notAllowed(name, 'build.network', build.network));
  }
  const context = typeof build.context === 'string' ? build.context : '.';
  if (/^[a-z]+:\/\//i.test(context) || context.startsWith('git@')) {
    found.push(notAllowed(name, 'build.context', `${context} (build from the repository itself)`));
  } else if (projectDir) {
    const absolute = path.resolve(projectDir, context);
    if (!isInside(projectDir, absolute)) {
      found.push(notAllowed(name, 'build.context', `${context} (outside the repository)`));
    } else if (
      typeof build.dockerfile === 'string' &&
      !isInside(projectDir, path.resolve(absolute, build.dockerfile))
    ) {
      found.push(notAllowed(name, 'build.dockerfile', `${build.dockerfile} (outside the repository)`));
    }
  }
  return found;
}

/**
 * Checks a normalized compose config. `projectDir` is the repository checkout the build contexts must stay in
 * (the real path, symlinks resolved by the caller).
 */
export function checkComposePolicy(config: unknown, projectDir?: string): PolicyViolation[] {
  if (!isObj(config))
    return [{ service: null, key: 'services', message: 'The compose file has no services' }];
  const services = isObj(config.services) ? config.services : {};
  if (Object.keys(services).length === 0) {
    return [{ service: null, key: 'services', message: 'The compose file has no services' }];
  }
  const found: PolicyViolation[] = [];
  for (const [name, service] of Object.entries(services)) {
    if (isObj(service)) found.push(...checkService(name, service, projectDir));
  }
  for (const [name, network] of Object.entries(isObj(config.networks) ? config.networks : {})) {
    if (!isObj(network)) continue;
    if (network.external === true || isObj(network.external)) {
      found.push(notAllowed(null, `networks.${name}.external`, 'true'));
    }
    if (typeof network.driver === 'string' && !ALLOWED_NETWORK_DRIVERS.has(network.driver)) {
      found.push(notAllowed(null, `networks.${name}.driver`, network.driver));
    }
    if (isObj(network.driver_opts) && Object.keys(network.driver_opts).length > 0) {
      found.push(notAllowed(null, `networks.${name}.driver_opts`, show(network.driver_opts)));
    }
  }
  for (const [name, volume] of Object.entries(isObj(config.volumes) ? config.volumes : {})) {
    if (!isObj(volume)) continue;
    if (volume.external === true || isObj(volume.external)) {
      found.push(notAllowed(null, `volumes.${name}.external`, 'true'));
    }
    if (typeof volume.driver === 'string' && volume.driver !== 'local') {
      found.push(notAllowed(null, `volumes.${name}.driver`, volume.driver));
    }
    // A "named volume" with driver_opts `o: bind, device: /etc` is a host bind mount in disguise.
    if (isObj(volume.driver_opts) && Object.keys(volume.driver_opts).length > 0) {
      found.push(notAllowed(null, `volumes.${name}.driver_opts`, show(volume.driver_opts)));
    }
  }
  for (const section of ['secrets', 'configs'] as const) {
    for (const [name, item] of Object.entries(isObj(config[section]) ? config[section] : {})) {
      if (!isObj(item)) continue;
      if (item.external === true || isObj(item.external)) {
        found.push(notAllowed(null, `${section}.${name}.external`, 'true'));
      }
      if (
        typeof item.file === 'string' &&
        (!projectDir || !isInside(projectDir, path.resolve(projectDir, item.file)))
      ) {
        found.push(notAllowed(null, `${section}.${name}.file`, `${item.file} (outside the repository)`));
      }
      if (item.environment !== undefined) {
        found.push(notAllowed(null, `${section}.${name}.environment`, show(item.environment)));
      }
    }
  }
  return found;
}

/**
 * Checks the RAW compose file for host files that `compose config` would read and inline before the normalized
 * config can be checked: `env_file` and `extends.file` must stay inside the repository.
 */
export function checkRawComposeFiles(raw: unknown, projectDir: string): PolicyViolation[] {
  if (!isObj(raw) || !isObj(raw.services)) return [];
  const found: PolicyViolation[] = [];
  for (const [name, service] of Object.entries(raw.services)) {
    if (!isObj(service)) continue;
    const envFiles = typeof service.env_file === 'string' ? [service.env_file] : asList(service.env_file);
    for (const entry of envFiles) {
      const file = typeof entry === 'string' ? entry : isObj(entry) ? String(entry.path ?? '') : '';
      if (file.includes('$') || !isInside(projectDir, path.resolve(projectDir, file))) {
        found.push(notAllowed(name, 'env_file', `${file} (outside the repository)`));
      }
    }
    if (isObj(service.extends) && typeof service.extends.file === 'string') {
      const file = service.extends.file;
      if (file.includes('$') || !isInside(projectDir, path.resolve(projectDir, file))) {
        found.push(notAllowed(name, 'extends.file', `${file} (outside the repository)`));
      }
    }
  }
  if (raw.include !== undefined) found.push(notAllowed(null, 'include', show(raw.include)));
  return found;
}
