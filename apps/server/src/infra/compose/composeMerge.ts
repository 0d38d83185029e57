/**
 * How Compose merges a service with its override (`compose.override.yaml`, a later file) or with the service it
 * `extends`: mappings merge key by key, the override's scalars win, and a few keys follow their own rule —
 * lists that add up, mounts keyed by their target, maps that may be written as `KEY=value` lists, and commands
 * that are replaced whole.
 */
export type Obj = Record<string, unknown>;
export const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Lists whose entries add up (duplicates once). */
const APPENDED = new Set([
  'ports',
  'expose',
  'dns',
  'dns_search',
  'dns_opt',
  'tmpfs',
  'cap_add',
  'cap_drop',
  'external_links',
  'security_opt',
  'group_add',
  'env_file',
  'label_file',
  'profiles',
  'links',
  'volumes_from',
  'device_cgroup_rules',
]);
/** Maps Compose also accepts as `KEY=value` (or `KEY:value`) lists. */
const LIST_OR_MAP = new Set(['environment', 'labels', 'sysctls', 'annotations', 'extra_hosts']);
const REPLACED = new Set(['command', 'entrypoint']);

/** `[A=1, B]` → `{A: '1', B: null}`; a map is returned as is. */
export function toMap(value: unknown, separator = '='): Obj {
  if (isObj(value)) return value;
  const out: Obj = {};
  for (const item of Array.isArray(value) ? value : []) {
    const text = String(item);
    const at = text.indexOf(separator);
    out[at === -1 ? text : text.slice(0, at)] = at === -1 ? null : text.slice(at + 1);
  }
  return out;
}

/** The container path a short (`src:dst[:mode]`) or long (`{target}`) mount entry mounts at. */
export function mountTarget(entry: unknown): string {
  if (isObj(entry)) return String(entry.target ?? '');
  const parts = String(entry).split(':');
  return parts.length === 1 ? (parts[0] ?? '') : (parts[1] ?? '');
}

function mergeByKey(base: unknown, over: unknown, keyOf: (entry: unknown) => string): unknown[] {
  const out = new Map<string, unknown>();
  for (const entry of [...(Array.isArray(base) ? base : []), ...(Array.isArray(over) ? over : [])]) {
    out.set(keyOf(entry), entry);
  }
  return [...out.values()];
}

const dependsMap = (value: unknown): Obj =>
  Array.isArray(value)
    ? Object.fromEntries(value.map((name) => [String(name), { condition: 'service_started' }]))
    : isObj(value)
      ? value
      : {};

const networksMap = (value: unknown): Obj =>
  Array.isArray(value)
    ? Object.fromEntries(value.map((name) => [String(name), null]))
    : isObj(value)
      ? value
      : {};

const refSource = (entry: unknown) => (isObj(entry) ? String(entry.source) : String(entry));
const buildObj = (value: unknown): Obj =>
  isObj(value) ? value : value === undefined ? {} : { context: value };

/** Deep merge of two mappings, the override winning on scalars and lists. */
export function mergeMaps(base: Obj, over: Obj): Obj {
  const out: Obj = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isObj(current) && isObj(value) ? mergeMaps(current, value) : value;
  }
  return out;
}

/** `over` applied on top of `base` (both one service's definition). */
export function mergeService(base: Obj, over: Obj): Obj {
  const out: Obj = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    if (current === undefined || value === null) out[key] = value;
    else if (REPLACED.has(key)) out[key] = value;
    else if (APPENDED.has(key)) {
      const list = (v: unknown) => (Array.isArray(v) ? v : [v]);
      out[key] = mergeByKey(list(current), list(value), (entry) => JSON.stringify(entry));
    } else if (LIST_OR_MAP.has(key)) {
      const separator = key === 'extra_hosts' ? ':' : '=';
      out[key] = { ...toMap(current, separator), ...toMap(value, separator) };
    } else if (key === 'volumes' || key === 'devices') out[key] = mergeByKey(current, value, mountTarget);
    else if (key === 'secrets' || key === 'configs') out[key] = mergeByKey(current, value, refSource);
    else if (key === 'depends_on') out[key] = mergeMaps(dependsMap(current), dependsMap(value));
    else if (key === 'networks') out[key] = mergeMaps(networksMap(current), networksMap(value));
    else if (key === 'build') out[key] = mergeMaps(buildObj(current), buildObj(value));
    else if (key === 'healthcheck' && isObj(current) && isObj(value)) out[key] = { ...current, ...value };
    else out[key] = isObj(current) && isObj(value) ? mergeMaps(current, value) : value;
  }
  return out;
}

const SECTIONS = ['networks', 'volumes', 'configs', 'secrets'] as const;

/** One whole file (`over`, e.g. the override file) applied on top of another. */
export function mergeProject(base: Obj, over: Obj): Obj {
  const out: Obj = { ...base, ...over };
  const services: Obj = { ...(isObj(base.services) ? base.services : {}) };
  for (const [name, service] of Object.entries(isObj(over.services) ? over.services : {})) {
    const current = services[name];
    services[name] = isObj(current) && isObj(service) ? mergeService(current, service) : service;
  }
  out.services = services;
  for (const section of SECTIONS) {
    if (base[section] === undefined && over[section] === undefined) continue;
    out[section] = mergeMaps(
      isObj(base[section]) ? base[section] : {},
      isObj(over[section]) ? over[section] : {},
    );
  }
  return out;
}
