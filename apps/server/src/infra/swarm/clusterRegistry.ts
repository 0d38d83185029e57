import { request } from 'node:https';
import type { RegistryCredentials } from './registryCredentials.js';
import { buildRegistryImage } from './registryImage.js';
import type { ClusterRegistry } from './registryImages.js';
import { type NodeEngine, SwarmCallError, waitFor } from './swarmCall.js';
import { ensureSwarmFile, swarmFileName } from './swarmFiles.js';
import { SECOND_NS, type SwarmServiceSpec } from './swarmServiceSpec.js';
import { applyService, waitForRollout } from './swarmServices.js';

export const REGISTRY_SERVICE = 'slipway-registry';
export const REGISTRY_PORT = 5000;
const LABELS = { 'dev.slipway.role': 'registry' };

const CONFIG = `version: 0.1
log:
  level: warn
storage:
  filesystem:
    rootdirectory: /var/lib/registry
  delete:
    enabled: true
http:
  addr: :${REGISTRY_PORT}
  tls:
    certificate: /etc/docker/registry/registry.crt
    key: /run/secrets/registry.key
auth:
  htpasswd:
    realm: slipway
    path: /run/secrets/htpasswd
`;

/** Asks the registry's API over TLS with the cluster's CA; resolves to the HTTP status. */
function probeRegistry(host: string, caCert: string, auth?: { username: string; password: string }) {
  return new Promise<number>((resolve, reject) => {
    const [hostname, port] = host.split(':');
    const req = request(
      {
        hostname,
        port: Number(port),
        path: '/v2/',
        ca: caCert,
        timeout: 3000,
        ...(auth ? { auth: `${auth.username}:${auth.password}` } : {}),
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 3 s')));
    req.on('error', reject);
    req.end();
  });
}

/**
 * Runs the cluster's registry as a Swarm service pinned to one node (its storage is a volume there), answering on
 * that node's private address with TLS from the cluster's CA and the cluster's one user. The engines must already
 * trust the CA for `{address}:5000`. Waits until the registry refuses an anonymous call and accepts the user's.
 */
export async function ensureRegistry(
  manager: NodeEngine,
  options: { node: NodeEngine; nodeId: string; credentials: RegistryCredentials },
): Promise<ClusterRegistry> {
  const { credentials, node } = options;
  const image = await buildRegistryImage(node);
  const file = async (kind: 'secret' | 'config', prefix: string, text: string) => {
    const data = Buffer.from(text);
    const name = swarmFileName(prefix, data);
    return { id: await ensureSwarmFile(manager, kind, name, data, LABELS), name };
  };
  const config = await file('config', 'slipway-registry-config', CONFIG);
  const cert = await file('config', 'slipway-registry-cert', credentials.cert);
  const key = await file('secret', 'slipway-registry-key', credentials.key);
  const htpasswd = await file('secret', 'slipway-registry-htpasswd', credentials.htpasswd);
  const owned = (target: string, mode = 0o444) => ({ Name: target, UID: '0', GID: '0', Mode: mode });
  const spec: SwarmServiceSpec = {
    Name: REGISTRY_SERVICE,
    Labels: LABELS,
    TaskTemplate: {
      ContainerSpec: {
        Image: image,
        Labels: LABELS,
        Mounts: [{ Type: 'volume', Source: 'slipway-registry-data', Target: '/var/lib/registry' }],
        Configs: [
          { ConfigID: config.id, ConfigName: config.name, File: owned('/etc/docker/registry/config.yml') },
          { ConfigID: cert.id, ConfigName: cert.name, File: owned('/etc/docker/registry/registry.crt') },
        ],
        Secrets: [
          { SecretID: key.id, SecretName: key.name, File: owned('registry.key', 0o400) },
          { SecretID: htpasswd.id, SecretName: htpasswd.name, File: owned('htpasswd', 0o400) },
        ],
      },
      RestartPolicy: { Condition: 'any', Delay: SECOND_NS },
      Placement: { Constraints: [`node.id==${options.nodeId}`] },
      Networks: [],
    },
    Mode: { Replicated: { Replicas: 1 } },
    // One data directory: the old registry stops before the new one starts.
    UpdateConfig: { Parallelism: 1, FailureAction: 'rollback', Monitor: 5 * SECOND_NS, Order: 'stop-first' },
    RollbackConfig: { Parallelism: 1, FailureAction: 'pause', Monitor: 5 * SECOND_NS, Order: 'stop-first' },
    EndpointSpec: {
      Mode: 'dnsrr',
      Ports: [
        { Protocol: 'tcp', TargetPort: REGISTRY_PORT, PublishedPort: REGISTRY_PORT, PublishMode: 'host' },
      ],
    },
  };
  const applied = await applyService(manager, spec);
  await waitForRollout(manager, REGISTRY_SERVICE, 60_000, !applied.created);
  const host = `${node.address}:${REGISTRY_PORT}`;
  await waitFor(
    `the registry on ${host}`,
    async () => {
      const anonymous = await probeRegistry(host, credentials.caCert);
      if (anonymous !== 401)
        throw new SwarmCallError('the registry', `answers ${anonymous} without credentials`);
      const signedIn = await probeRegistry(host, credentials.caCert, credentials);
      return signedIn === 200 ? true : undefined;
    },
    30_000,
  );
  return {
    host,
    auth: { username: credentials.username, password: credentials.password, serveraddress: host },
  };
}
