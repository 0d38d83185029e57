import { describe, expect, it } from 'vitest';
import type { ServiceRole } from '../health/serviceRoles.js';
import { planReplacement } from './blueGreenPlan.js';

const role = (name: string, patch: Partial<ServiceRole> = {}): ServiceRole => ({
  name,
  publishedPorts: [],
  oneShot: false,
  healthcheck: false,
  restart: undefined,
  ...patch,
});
const web = (tag: string) => ({ image: `slipway-ws-web:${tag}`, build: { context: '.' }, ports: ['8080'] });
const db = { image: 'postgres:16', volumes: ['data:/var/lib/postgresql/data'] };
const roles = [role('web', { publishedPorts: [8080] }), role('db')];

describe('planReplacement', () => {
  it('starts the changed published services beside the serving ones; unchanged and private ones stay', () => {
    const previous = { services: { web: web('d1'), db }, envDigest: 'a' };
    expect(planReplacement(previous, { services: { web: web('d2'), db }, envDigest: 'a' }, roles)).toEqual({
      blueGreen: ['web'],
    });
  });

  it('replaces in place on a first deployment or when no published service changed', () => {
    const next = { services: { web: web('d1'), db }, envDigest: 'a' };
    expect(planReplacement(undefined, next, roles)).toEqual({ inPlace: 'no version is serving' });
    expect(planReplacement(next, next, roles)).toEqual({ inPlace: 'no published service changed' });
  });

  it('keeps stateful or entangled services in place, and waits for a changed migration only in place', () => {
    const previous = { services: { web: web('d1'), db }, envDigest: 'a' };
    const withVolume = { ...web('d2'), volumes: ['uploads:/srv/uploads'] };
    expect(planReplacement(previous, { services: { web: withVolume, db }, envDigest: 'a' }, roles)).toEqual({
      inPlace: 'web keeps its data in a named volume',
    });
    const writable = {
      ...web('d2'),
      volumes: ['/srv/data/ws/pgdata:/var/lib/data', '/srv/data/ws/conf:/etc/app:ro'],
    };
    expect(planReplacement(previous, { services: { web: writable, db }, envDigest: 'a' }, roles)).toEqual({
      inPlace: 'web writes to a bind-mounted directory',
    });
    const readOnly = {
      ...web('d2'),
      volumes: [
        '/srv/data/ws/conf:/etc/app:ro',
        { type: 'bind', source: '/srv/site', target: '/www', read_only: true },
      ],
    };
    expect(planReplacement(previous, { services: { web: readOnly, db }, envDigest: 'a' }, roles)).toEqual({
      blueGreen: ['web'],
    });
    const sharing = { ...web('d2'), network_mode: 'service:db' };
    expect(planReplacement(previous, { services: { web: sharing, db }, envDigest: 'a' }, roles)).toEqual({
      inPlace: 'web shares another container',
    });
    const migrate = { image: 'slipway-ws-migrate:d2', build: { context: '.' } };
    const waiting = {
      ...web('d2'),
      depends_on: { migrate: { condition: 'service_completed_successfully' } },
    };
    const withMigration = [...roles, role('migrate', { oneShot: true })];
    expect(
      planReplacement(
        {
          services: { ...previous.services, migrate: { ...migrate, image: 'slipway-ws-migrate:d1' } },
          envDigest: 'a',
        },
        { services: { web: waiting, db, migrate }, envDigest: 'a' },
        withMigration,
      ),
    ).toEqual({ inPlace: 'web waits for migrate, which changed and runs once' });
    // A long-running dependency that changed (new variables recreate the database) does not hold it back.
    expect(
      planReplacement(
        previous,
        { services: { web: { ...web('d2'), depends_on: ['db'] }, db }, envDigest: 'b' },
        roles,
      ),
    ).toEqual({ blueGreen: ['web'] });
  });
});
