import { describe, expect, it } from 'vitest';
import { LABELS } from '../../infra/docker/conventions.js';
import { greenProject } from './greenProject.js';

describe('greenProject', () => {
  const config = {
    services: {
      web: {
        image: 'slipway-ws-web:d2',
        build: { context: '/src/web' },
        ports: ['10.0.0.4:20001:8080/tcp'],
        depends_on: { api: { condition: 'service_healthy' }, db: { condition: 'service_started' } },
        links: ['db'],
        networks: { front: { aliases: ['www'] }, back: null },
        labels: { [LABELS.workspaceId]: 'ws', [LABELS.userId]: 'u', team: 'shop' },
        environment: { TOKEN: 'secret' },
      },
      api: { image: 'slipway-ws-api:d2', ports: ['10.0.0.4:20002:9000/tcp'] },
      db: { image: 'postgres:16' },
    },
    networks: { front: {}, back: { name: 'shared-back' } },
    volumes: { data: {} },
    secrets: { key: { file: '/data/key' } },
  };

  it('runs the chosen services under names of their own, on the existing networks and their own host ports', () => {
    const project = greenProject(config, {
      services: ['web', 'api'],
      mainProject: 'slipway-ws',
      workspaceId: 'ws',
      hostPorts: { web: { '8080': 25001 }, api: { '9000': 25002 } },
      publishAddress: '10.0.0.4',
    });
    expect(Object.keys(project.services as object)).toEqual([
      'slipway-candidate-web',
      'slipway-candidate-api',
    ]);
    const web = (project.services as Record<string, Record<string, unknown>>)['slipway-candidate-web']!;
    expect(web.ports).toEqual(['10.0.0.4:25001:8080/tcp']);
    // Only what the candidate itself runs is waited for; `db` runs already in the workspace's project.
    expect(web.depends_on).toEqual({ 'slipway-candidate-api': { condition: 'service_healthy' } });
    expect(web.links).toBeUndefined();
    expect(web.build).toBeUndefined();
    // No alias: the app's other services must not reach the unverified version as `www`.
    expect(web.networks).toEqual({ front: {}, back: {} });
    expect(project.networks).toEqual({
      front: { external: true, name: 'slipway-ws_front' },
      back: { external: true, name: 'shared-back' },
      default: { external: true, name: 'slipway-ws_default' },
    });
    // Not one of the workspace's containers (logs, monitoring, the service list), but known as its candidate;
    // the workspace label is set empty, so no image can give the candidate a workspace through its own labels.
    expect(web.labels).toEqual({
      [LABELS.workspaceId]: '',
      [LABELS.userId]: 'u',
      team: 'shop',
      [LABELS.candidateOf]: 'ws',
      [LABELS.candidateService]: 'web',
    });
    expect(web.environment).toEqual({ TOKEN: 'secret' });
    expect(project.volumes).toBeUndefined();
    expect(project.secrets).toEqual(config.secrets);
    const api = (project.services as Record<string, Record<string, unknown>>)['slipway-candidate-api']!;
    expect(api.networks).toEqual({ default: {} });
  });
});
