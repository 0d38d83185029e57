import { createHash } from 'node:crypto';
import { engineCall, type NodeEngine, SwarmCallError } from './swarmCall.js';

export type SwarmFileKind = 'secret' | 'config';

/** Swarm's secrets and configs are immutable: each content gets a name of its own, `{prefix}-{sha256, 12}`. */
export const swarmFileName = (prefix: string, data: Buffer) =>
  `${prefix}-${createHash('sha256').update(data).digest('hex').slice(0, 12)}`;

type RawFile = { ID?: string; Spec?: { Name?: string } };

/** Creates a secret or config of that name unless it exists (same name, same content); returns its id. */
export async function ensureSwarmFile(
  manager: NodeEngine,
  kind: SwarmFileKind,
  name: string,
  data: Buffer,
  labels: Record<string, string>,
): Promise<string> {
  const list = async (signal: AbortSignal): Promise<RawFile[]> =>
    kind === 'secret'
      ? manager.docker.listSecrets({ filters: { name: [name] }, abortSignal: signal })
      : manager.docker.listConfigs({ filters: { name: [name] }, abortSignal: signal });
  const existing = (await engineCall(`list ${kind}s`, list)).find((f) => f.Spec?.Name === name);
  if (existing?.ID) return existing.ID;
  const body = { Name: name, Labels: labels, Data: data.toString('base64') };
  const created = (await engineCall(`create ${kind} ${name}`, (abortSignal) =>
    kind === 'secret'
      ? manager.docker.createSecret({ ...body, abortSignal })
      : manager.docker.createConfig({ ...body, abortSignal }),
  )) as { id?: string; ID?: string };
  const id = created.id ?? created.ID;
  if (!id) throw new SwarmCallError(`create ${kind} ${name}`, 'no id in the answer');
  return id;
}

/** Removes the secrets and configs carrying these labels that no service uses any more (in use: left, quietly). */
export async function removeSwarmFiles(manager: NodeEngine, labels: Record<string, string>): Promise<void> {
  const filters = { label: Object.entries(labels).map(([k, v]) => `${k}=${v}`) };
  for (const kind of ['secret', 'config'] as const) {
    const files = await engineCall(
      `list ${kind}s`,
      async (abortSignal): Promise<RawFile[]> =>
        kind === 'secret'
          ? manager.docker.listSecrets({ filters, abortSignal })
          : manager.docker.listConfigs({ filters, abortSignal }),
    );
    for (const file of files) {
      if (!file.ID) continue;
      const id = file.ID;
      try {
        await engineCall(`remove ${kind} ${id}`, (abortSignal) =>
          kind === 'secret'
            ? manager.docker.getSecret(id).remove({ abortSignal })
            : manager.docker.getConfig(id).remove({ abortSignal }),
        );
      } catch (error) {
        // 400: a service still uses it (the next deployment's clean-up takes it); 404: already gone.
        const status = error instanceof SwarmCallError ? error.statusCode : undefined;
        if (status !== 400 && status !== 404) throw error;
      }
    }
  }
}
