import { describe, expect, it } from 'vitest';
import { serviceChanges } from './serviceChanges.js';

const db = { image: 'postgres:16', volumes: ['data:/var/lib/postgresql/data'] };
const web = { image: 'slipway-ws-web:d2', build: { context: '.' } };
const cache = { image: 'redis:7' };

describe('serviceChanges', () => {
  it('says which published-image services are left running and which stateful ones are recreated', () => {
    const previous = { services: { db, cache, web: { ...web, image: 'slipway-ws-web:d1' } }, envDigest: 'a' };
    expect(serviceChanges(previous, { services: { db, cache, web }, envDigest: 'a' })).toEqual([
      'db: unchanged, left running',
      'cache: unchanged, left running',
    ]);
    const changedDb = { ...db, image: 'postgres:17' };
    expect(serviceChanges(previous, { services: { db: changedDb, cache, web }, envDigest: 'a' })).toEqual([
      'db: its configuration changed, so it is recreated in place (its volumes are kept)',
      'cache: unchanged, left running',
    ]);
  });

  it('counts changed variables as a change, and says nothing on a first deployment', () => {
    const previous = { services: { db, cache }, envDigest: 'a' };
    expect(serviceChanges(previous, { services: { db, cache }, envDigest: 'b' })).toEqual([
      'db: its configuration changed, so it is recreated in place (its volumes are kept)',
    ]);
    expect(
      serviceChanges({ ...previous, envDigest: undefined }, { services: { db }, envDigest: undefined }),
    ).toEqual(['db: its configuration changed, so it is recreated in place (its volumes are kept)']);
    expect(serviceChanges(undefined, { services: { db }, envDigest: 'a' })).toEqual([]);
  });

  it('does not take a bind mount for a named volume', () => {
    const bound = { image: 'nginx:1', volumes: ['/data/ws/d2/nginx.conf:/etc/nginx/nginx.conf:ro'] };
    const previous = {
      services: { proxy: { ...bound, volumes: ['/data/ws/d1/nginx.conf:/etc/nginx/nginx.conf:ro'] } },
      envDigest: 'a',
    };
    expect(serviceChanges(previous, { services: { proxy: bound }, envDigest: 'a' })).toEqual([]);
  });
});
