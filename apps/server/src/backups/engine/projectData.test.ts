import { describe, expect, it } from 'vitest';
import { majorVersion } from './partMethod.js';
import { recogniseMethod } from './projectData.js';

describe('recognising how a service is backed up', () => {
  it.each([
    ['postgres:16-alpine', {}, 'postgres'],
    ['docker.io/postgis/postgis:15-3.4', {}, 'postgres'],
    ['timescale/timescaledb:latest-pg15', {}, 'postgres'],
    ['registry.example.com:5000/team/app-db@sha256:abc', { PGDATA: '/data' }, 'postgres'],
    ['mysql:8.0', {}, 'mysql'],
    ['mariadb:11', {}, 'mysql'],
    ['local/custom', { MARIADB_ROOT_PASSWORD: 'x' }, 'files'],
    ['mongo:7', {}, 'mongodb'],
    ['bitnami/mongodb:6.0', {}, 'mongodb'],
    ['local/custom', { MONGO_INITDB_ROOT_USERNAME: 'root' }, 'files'],
    ['redis:7-alpine', {}, 'redis'],
    ['nginx:1.27', {}, 'files'],
    ['local/web-app', { POSTGRES_PASSWORD: 'x', MYSQL_HOST: 'db' }, 'files'],
  ])('%s with %j → %s', (image, env, method) => {
    expect(recogniseMethod(image, env)).toBe(method);
  });

  it("takes settings for a database only beside that database's data directory", () => {
    expect(recogniseMethod('local/custom', { MARIADB_ROOT_PASSWORD: 'x' }, ['/var/lib/mysql'])).toBe('mysql');
    expect(recogniseMethod('local/custom', { POSTGRES_USER: 'x' }, ['/var/lib/postgresql/data'])).toBe(
      'postgres',
    );
    expect(recogniseMethod('local/custom', { MONGO_INITDB_ROOT_USERNAME: 'x' }, ['/data/db'])).toBe(
      'mongodb',
    );
    expect(recogniseMethod('local/web-app', { POSTGRES_PASSWORD: 'x' }, ['/srv/uploads'])).toBe('files');
  });

  it('compares PostgreSQL by its first number, MySQL and MariaDB by two', () => {
    expect(majorVersion('postgres', '15.14 (Debian 15.14-0+deb12u1)')).toBe('15');
    expect(majorVersion('postgres', '9.6.24')).toBe('9.6');
    expect(majorVersion('mysql', '10.11.6-MariaDB-0+deb12u1')).toBe('10.11');
    expect(majorVersion('mysql', '8.0.36')).toBe('8.0');
  });
});
