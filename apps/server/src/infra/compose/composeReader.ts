import path from 'node:path';
import { parse as parseDotEnv } from 'dotenv';
import { JailError, type RepositoryJail } from '../jail/repositoryJail.js';
import { ComposeReadError, interpolateTree } from './composeInterpolation.js';
import { COMPOSE_LIMITS, parseComposeText } from './composeLimits.js';
import { isObj, mergeProject, mergeService, type Obj } from './composeMerge.js';
import { jailViolation, refused } from './composeRawPolicy.js';
import { validateComposeFile } from './composeSchema.js';
import type { PolicyViolation } from './policyViolation.js';

/**
 * Reads a repository's compose project as the Compose Specification defines it — every file through the
 * repository jail, each interpolated and validated against the official schema, `include`s and `extends`
 * resolved, the override file merged, the default profile kept, `x-` fields dropped — into one model whose
 * paths are absolute (inside the checkout, or as the user wrote them when absolute, for the policy to refuse).
 * `env_file`/`label_file` entries are resolved to real paths here (a missing optional one dropped).
 */
export interface ReadContext {
  jail: RepositoryJail;
  /** Interpolation variables: the repository's `.env` under the workspace's own variables. */
  env: Record<string, string>;
  violations: PolicyViolation[];
  /** Real paths of files being loaded (cycles) and already loaded (each read once). */
  loading: Set<string>;
  loaded: Map<string, Obj>;
}

const isUrl = (text: string) => /^[a-z]+:\/\//i.test(text) || text.startsWith('git@');

/** A file a compose file names, resolved inside the repository; undefined (and a violation) when it is not. */
function referenced(
  ctx: ReadContext,
  service: string | null,
  key: string,
  given: string,
  fromDir: string,
  required = true,
): string | undefined {
  try {
    return ctx.jail.resolve(given, fromDir);
  } catch (error) {
    if (!(error instanceof JailError)) throw error;
    if (error.reason !== 'missing' || required)
      ctx.violations.push(jailViolation(ctx.jail.root, service, key, given, error));
    return undefined;
  }
}

function dropExtensions(item: unknown): unknown {
  if (!isObj(item)) return item;
  return Object.fromEntries(Object.entries(item).filter(([key]) => !key.startsWith('x-')));
}

/** Lists of `env_file`/`label_file` items become `{path: real, required}` (checked through the jail). */
function resolveListedFiles(ctx: ReadContext, name: string, key: string, value: unknown, dir: string) {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const out: Obj[] = [];
  for (const item of items) {
    const given = isObj(item) ? String(item.path ?? '') : String(item);
    const required = !(isObj(item) && (item.required === false || item.required === 'false'));
    const real = referenced(ctx, name, key, given, dir, required);
    if (real === undefined) continue;
    try {
      ctx.jail.readText(real, { maxBytes: COMPOSE_LIMITS.envFileBytes });
      out.push({ path: real });
    } catch (error) {
      if (!(error instanceof JailError)) throw error;
      ctx.violations.push(jailViolation(ctx.jail.root, name, key, given, error));
    }
  }
  return out;
}

function rebaseVolume(entry: unknown, dir: string): unknown {
  if (typeof entry === 'string') {
    const [source = '', ...rest] = entry.split(':');
    if (rest.length === 0 || !source.startsWith('.')) return entry;
    return [path.resolve(dir, source), ...rest].join(':');
  }
  if (
    isObj(entry) &&
    entry.type === 'bind' &&
    typeof entry.source === 'string' &&
    entry.source.startsWith('.')
  ) {
    return { ...entry, source: path.resolve(dir, entry.source) };
  }
  return entry;
}

/** Makes one file's relative paths absolute against its own directory (as Compose does for each file). */
function rebaseService(ctx: ReadContext, name: string, raw: Obj, dir: string): Obj {
  const service = dropExtensions(raw) as Obj;
  if (service.build !== undefined) {
    const build = dropExtensions(isObj(service.build) ? service.build : { context: service.build }) as Obj;
    const context = typeof build.context === 'string' ? build.context : '.';
    build.context = isUrl(context) ? context : path.resolve(dir, context);
    service.build = build;
  }
  for (const key of ['env_file', 'label_file'] as const) {
    if (service[key] !== undefined) service[key] = resolveListedFiles(ctx, name, key, service[key], dir);
  }
  if (Array.isArray(service.volumes))
    service.volumes = service.volumes.map((entry) => rebaseVolume(entry, dir));
  return service;
}

function rebaseSections(model: Obj, dir: string) {
  for (const section of ['networks', 'volumes', 'configs', 'secrets'] as const) {
    if (!isObj(model[section])) continue;
    const items: Obj = {};
    for (const [name, item] of Object.entries(model[section])) {
      const clean = dropExtensions(item);
      items[name] =
        isObj(clean) && typeof clean.file === 'string' && !path.isAbsolute(clean.file)
          ? { ...clean, file: path.resolve(dir, clean.file) }
          : clean;
    }
    model[section] = items;
  }
}

/** The service `name` of a file's `services`, with its `extends` chain merged in. */
function resolveExtends(ctx: ReadContext, services: Obj, name: string, dir: string, chain: string[]): Obj {
  const service = services[name];
  if (!isObj(service))
    throw new ComposeReadError(`Service '${chain.at(-1) ?? name}' extends '${name}', which is not defined`);
  const ext = service.extends;
  if (ext === undefined) return service;
  const { extends: _ext, ...own } = service;
  const target = typeof ext === 'string' ? { service: ext } : isObj(ext) ? ext : {};
  const baseName = String(target.service ?? '');
  let base: Obj;
  if (typeof target.file === 'string') {
    if (chain.length >= COMPOSE_LIMITS.extendsDepth) {
      ctx.violations.push(
        refused(
          name,
          'extends.file',
          target.file,
          `is not allowed (more than ${COMPOSE_LIMITS.extendsDepth} files deep)`,
        ),
      );
      return own;
    }
    const real = referenced(ctx, name, 'extends.file', target.file, dir);
    if (real === undefined) return own;
    const other = loadFile(ctx, real, target.file, [...chain, name]);
    const found = isObj(other.services) ? other.services[baseName] : undefined;
    if (!isObj(found)) {
      throw new ComposeReadError(
        `Service '${name}' extends '${baseName}', which is not defined in ${target.file}`,
      );
    }
    base = found;
  } else {
    if (chain.includes(baseName) || baseName === name) {
      throw new ComposeReadError(`Service '${name}' extends '${baseName}' in a circle`);
    }
    base = resolveExtends(ctx, services, baseName, dir, [...chain, name]);
  }
  return mergeService(base, own);
}

function includeEntries(value: unknown): string[] {
  const items = Array.isArray(value) ? value : [];
  return items.flatMap((item) => {
    if (typeof item === 'string') return [item];
    if (!isObj(item)) return [];
    if (item.project_directory !== undefined || item.env_file !== undefined) {
      throw new ComposeReadError(
        'include with project_directory or env_file is not supported; use path only',
      );
    }
    return Array.isArray(item.path) ? item.path.map(String) : [String(item.path ?? '')];
  });
}

/** Adds an included project's resources; a name defined on both sides is an error, as in Compose. */
function addIncluded(model: Obj, included: Obj, given: string) {
  for (const section of ['services', 'networks', 'volumes', 'configs', 'secrets'] as const) {
    if (!isObj(included[section])) continue;
    const current: Obj = isObj(model[section]) ? { ...model[section] } : {};
    for (const [name, item] of Object.entries(included[section])) {
      if (current[name] !== undefined) {
        throw new ComposeReadError(`include: ${given} defines ${section}.${name}, which is already defined`);
      }
      current[name] = item;
    }
    model[section] = current;
  }
}

/** Loads one file (real path `real`, shown as `shown`): everything above, for this file and what it names. */
export function loadFile(ctx: ReadContext, real: string, shown: string, chain: string[] = []): Obj {
  const cached = ctx.loaded.get(real);
  if (cached) return cached;
  if (ctx.loading.has(real)) throw new ComposeReadError(`${shown} includes or extends itself`);
  ctx.loading.add(real);
  const text = ctx.jail.readText(real, { maxBytes: COMPOSE_LIMITS.fileBytes });
  const parsed = parseComposeText(text, shown);
  if (!isObj(parsed)) throw new ComposeReadError(`${shown} is not a compose file (a mapping of keys)`);
  const interpolated = interpolateTree(parsed, ctx.env) as Obj;
  validateComposeFile(interpolated, shown);
  const dir = path.dirname(real);
  const model = dropExtensions(interpolated) as Obj;
  const rawServices = isObj(model.services) ? model.services : {};
  const rebased: Obj = {};
  for (const [name, service] of Object.entries(rawServices)) {
    rebased[name] = isObj(service) ? rebaseService(ctx, name, service, dir) : service;
  }
  const services: Obj = {};
  for (const name of Object.keys(rebased)) services[name] = resolveExtends(ctx, rebased, name, dir, chain);
  model.services = services;
  rebaseSections(model, dir);
  for (const given of includeEntries(model.include)) {
    const included = referenced(ctx, null, 'include', given, dir);
    if (included !== undefined) addIncluded(model, loadFile(ctx, included, given, chain), given);
  }
  delete model.include;
  ctx.loading.delete(real);
  ctx.loaded.set(real, model);
  return model;
}

/** `compose.yaml` → `compose.override.yaml` (or `.yml`), as Compose looks for it beside the file. */
export function overrideFileFor(jail: RepositoryJail, fileName: string): string | undefined {
  const base = fileName.replace(/\.ya?ml$/, '');
  return [`${base}.override.yaml`, `${base}.override.yml`].find((name) => jail.exists(name));
}

/** Variables for interpolation: the repository's `.env` with the workspace's variables on top. */
export function interpolationEnv(dotEnv: string, workspaceEnv: Record<string, string>) {
  return { ...parseDotEnv(dotEnv), ...workspaceEnv };
}

/** The whole project: the file, its override, then only the default profile's services. */
export function readComposeModel(ctx: ReadContext, fileName: string): { model: Obj; profiled: string[] } {
  let model = loadFile(ctx, ctx.jail.resolve(fileName), fileName);
  const override = overrideFileFor(ctx.jail, fileName);
  if (override) model = mergeProject(model, loadFile(ctx, ctx.jail.resolve(override), override));
  const active: Obj = {};
  const profiled: string[] = [];
  for (const [name, service] of Object.entries(isObj(model.services) ? model.services : {})) {
    if (!isObj(service)) continue;
    const { profiles, ...rest } = service;
    if (Array.isArray(profiles) && profiles.length > 0) profiled.push(name);
    else active[name] = rest;
  }
  // A file refused on the way (an `extends` out of the repository) may leave a service without its image.
  if (ctx.violations.length === 0) {
    refuseImageless(
      active,
      override === undefined ? fileName : `${fileName} with ${override} merged over it`,
    );
  }
  return { model: { ...model, services: active }, profiled };
}

/**
 * A service with neither `image` nor `build` once the files are merged (an override file that adds a service,
 * or renames one, without saying what it runs) would only fail at `up`, after the builds; it fails here.
 */
function refuseImageless(services: Obj, read: string) {
  const imageless = Object.entries(services)
    .filter(([, service]) => isObj(service) && service.image === undefined && service.build === undefined)
    .map(([name]) => `'${name}'`);
  if (imageless.length === 0) return;
  const which =
    imageless.length === 1 ? `Service ${imageless[0]} has` : `Services ${imageless.join(', ')} have`;
  throw new ComposeReadError(
    `${which} neither an image nor a build in ${read}: give each service an image or a build section`,
  );
}
