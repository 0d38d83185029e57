import { describe, expect, it } from 'vitest';
import { checkReplicas, megabytes, requestedReplicas } from './replicaPolicy.js';

const ONE_GB = { name: '1 GB RAM', vcpus: 2, memoryMb: 1024 };
const check = (services: Record<string, Record<string, unknown>>, overrides: Record<string, number> = {}) =>
  checkReplicas(services, { overrides, vm: ONE_GB });

describe('replicas of a service', () => {
  it('reads deploy.replicas, then scale, else one; the stored count wins', () => {
    expect(requestedReplicas({ deploy: { replicas: 3 } })).toBe(3);
    expect(requestedReplicas({ scale: 2 })).toBe(2);
    expect(requestedReplicas({})).toBe(1);
    expect(check({ web: { deploy: { replicas: 3 } } }, { web: 2 }).replicas).toEqual({ web: 2 });
  });

  it('refuses replicas of a service that keeps data in a named volume, with the reason', () => {
    const { violations } = check({
      db: { deploy: { replicas: 2 }, volumes: ['pgdata:/var/lib/postgresql/data'] },
    });
    expect(violations.map((v) => v.message)).toEqual([
      'db keeps data in the named volume pgdata: two replicas would share one data directory; run one replica',
    ]);
    // One replica on a named volume is the usual database; a bind mount is not a named volume.
    expect(check({ db: { volumes: ['pgdata:/data'] } }).violations).toEqual([]);
    expect(check({ web: { scale: 2, volumes: ['/srv/static:/static:ro'] } }).violations).toEqual([]);
  });

  it('refuses more than ten', () => {
    expect(check({ web: { scale: 11 } }).violations[0]?.message).toBe(
      'web asks for 11 replicas; a service runs at most 10',
    );
  });

  it('refuses replicas that do not fit the VM size, counting what each container declares', () => {
    const big = { deploy: { replicas: 3, resources: { reservations: { memory: '512M' } } } };
    expect(check({ web: big }).violations[0]?.message).toBe(
      '3 replicas of web do not fit the 1 GB RAM VM: its containers would need 1536 MB of memory, more than its 1024 MB; run fewer replicas or choose a larger VM size',
    );
    expect(
      check({ web: { deploy: { replicas: 3, resources: { limits: { cpus: '1' } } } } }).violations[0]
        ?.message,
    ).toContain('would need 3 CPUs, more than its 2');
    expect(check({ web: { deploy: { replicas: 10 } } }).violations).toEqual([]);
  });

  it('reads Compose byte values', () => {
    expect(megabytes('512M')).toBe(512);
    expect(megabytes('1g')).toBe(1024);
    expect(megabytes('1.5GB')).toBe(1536);
    expect(megabytes(1024 * 1024 * 256)).toBe(256);
    expect(megabytes('lots')).toBeUndefined();
  });
});
