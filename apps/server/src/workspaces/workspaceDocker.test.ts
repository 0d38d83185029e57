import { describe, expect, it } from 'vitest';
import { LABELS } from '../infra/docker/conventions.js';
import { baseServiceName, serviceName } from './workspaceDocker.js';

describe('what logs, health rows and alerts call a container', () => {
  it('names a replica of a replicated service by its number, a single container by its service', () => {
    const replica = {
      Labels: { [LABELS.composeService]: 'web', [LABELS.replicas]: '3', [LABELS.composeNumber]: '2' },
    };
    expect(serviceName(replica)).toBe('web.2');
    expect(baseServiceName(replica)).toBe('web');
    expect(serviceName({ Labels: { [LABELS.composeService]: 'db', [LABELS.composeNumber]: '1' } })).toBe(
      'db',
    );
    expect(serviceName({ Names: ['/lonely'] })).toBe('lonely');
  });
});
