import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { makeLoopbackCertificate } from '../fixtures/loopbackCertificate.js';

export const AZURE_TEST_TOKEN = 'stand-in-arm-token';

interface Resource {
  id: string;
  name: string;
  type: string;
  location?: string;
  tags?: Record<string, string>;
  properties: Record<string, unknown>;
}

/**
 * Azure Resource Manager as the Compute and Network SDKs see it, over HTTPS on loopback (the SDK refuses bearer
 * tokens over plain HTTP): PUT/GET/DELETE of network interfaces and virtual machines, the VM instance view, and
 * long-running operations reported through `Azure-AsyncOperation` (InProgress once, then Succeeded).
 */
export async function startArmStandIn(options: {
  privateIp: string;
  /** Called with the VM's PUT body, as Azure's provisioning agent would install its SSH key. */
  onVmCreated?: (body: { properties?: Record<string, unknown> }) => void;
}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'slipway-arm-'));
  const files = makeLoopbackCertificate(dir, '127.0.0.1');
  const cert = readFileSync(files.certificate, 'utf8');
  const resources = new Map<string, Resource>();
  const operations = new Map<string, { polls: number; onDone: () => void }>();
  const requests: { method: string; path: string; body: unknown }[] = [];
  let base = '';

  const server = https.createServer({ cert, key: readFileSync(files.key) }, (req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      const body = raw ? JSON.parse(raw) : undefined;
      requests.push({ method: req.method ?? '', path: url.pathname, body });
      const send = (status: number, payload?: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, {
          'content-type': 'application/json',
          'x-ms-request-id': randomUUID(),
          ...headers,
        });
        res.end(payload === undefined ? '' : JSON.stringify(payload));
      };
      if (req.headers.authorization !== `Bearer ${AZURE_TEST_TOKEN}`) {
        return send(401, { error: { code: 'AuthenticationFailed', message: 'Authentication failed.' } });
      }
      const key = url.pathname.toLowerCase();
      const operation = key.match(/\/operations\/([^/]+)$/)?.[1];
      if (operation && req.method === 'GET') {
        const op = operations.get(operation);
        if (!op) return send(404, { error: { code: 'NotFound', message: 'No such operation' } });
        op.polls += 1;
        if (op.polls < 2) return send(200, { status: 'InProgress' }, { 'retry-after': '0' });
        op.onDone();
        return send(200, { status: 'Succeeded' });
      }
      const startOperation = (onDone: () => void) => {
        const id = randomUUID();
        operations.set(id, { polls: 0, onDone });
        const provider = key.includes('microsoft.network') ? 'Microsoft.Network' : 'Microsoft.Compute';
        const sub = url.pathname.split('/')[2];
        return {
          'azure-asyncoperation': `${base}/subscriptions/${sub}/providers/${provider}/locations/westeurope/operations/${id}?api-version=2024-01-01`,
          'retry-after': '0',
        };
      };
      const instanceView = key.endsWith('/instanceview');
      const resourceKey = instanceView ? key.slice(0, -'/instanceview'.length) : key;
      const existing = resources.get(resourceKey);
      if (req.method === 'GET') {
        if (!existing)
          return send(404, {
            error: { code: 'ResourceNotFound', message: `Resource ${url.pathname} was not found.` },
          });
        if (instanceView) {
          return send(200, {
            statuses: [
              { code: 'ProvisioningState/succeeded', level: 'Info', displayStatus: 'Provisioning succeeded' },
              { code: 'PowerState/running', level: 'Info', displayStatus: 'VM running' },
            ],
          });
        }
        return send(200, existing);
      }
      if (req.method === 'PUT') {
        const segments = url.pathname.split('/');
        const name = segments[segments.length - 1]!;
        const isNic = key.includes('/networkinterfaces/');
        const properties = { ...(body?.properties ?? {}), provisioningState: 'Succeeded' } as Record<
          string,
          unknown
        >;
        if (isNic) {
          const configs =
            (properties.ipConfigurations as { name: string; properties: Record<string, unknown> }[]) ?? [];
          properties.ipConfigurations = configs.map((config) => ({
            ...config,
            id: `${url.pathname}/ipConfigurations/${config.name}`,
            properties: {
              ...config.properties,
              privateIPAddress: options.privateIp,
              provisioningState: 'Succeeded',
            },
          }));
        } else {
          options.onVmCreated?.(body);
          properties.vmId = randomUUID();
        }
        const resource: Resource = {
          id: url.pathname,
          name,
          type: isNic ? 'Microsoft.Network/networkInterfaces' : 'Microsoft.Compute/virtualMachines',
          location: body?.location,
          tags: body?.tags,
          properties,
        };
        const headers = startOperation(() => resources.set(key, resource));
        return send(
          201,
          { ...resource, properties: { ...properties, provisioningState: 'Creating' } },
          headers,
        );
      }
      if (req.method === 'DELETE') {
        if (!existing) return send(204);
        const headers = startOperation(() => resources.delete(key));
        return send(202, undefined, { ...headers, location: headers['azure-asyncoperation']! });
      }
      return send(405, { error: { code: 'MethodNotAllowed', message: req.method } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    ca: cert,
    requests,
    resources,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
