import { expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import { DEFAULT_NETWORK_POOL, parseSubnetPool } from './networkSubnets.js';

it('reads a pool and a network size', () => {
  expect(parseSubnetPool(DEFAULT_NETWORK_POOL, 25)).toEqual({
    base: 10 * 2 ** 24 + 213 * 2 ** 16,
    prefix: 16,
    size: 25,
  });
  // A pool written from an address inside it starts at its first address.
  expect(parseSubnetPool('10.213.7.9/16', 24).base).toBe(10 * 2 ** 24 + 213 * 2 ** 16);
});

it('refuses a pool or a size that cannot work, naming the setting', () => {
  expect(() => parseSubnetPool('10.213.0.0', 25)).toThrow(/WORKSPACE_NETWORK_POOL must be an IPv4 range/);
  expect(() => parseSubnetPool('fd00::/64', 80)).toThrow(/WORKSPACE_NETWORK_POOL must be an IPv4 range/);
  expect(() => parseSubnetPool('10.213.0.0/16', 12)).toThrow(
    /WORKSPACE_NETWORK_SIZE must be a prefix length from 16/,
  );
  expect(() => parseSubnetPool('10.213.0.0/16', 31)).toThrow(/WORKSPACE_NETWORK_SIZE/);
  expect(() => loadConfig({ WORKSPACE_NETWORK_POOL: 'ten/8' }, { root: '/tmp' })).toThrow(
    /Invalid configuration:\n {2}WORKSPACE_NETWORK_POOL must be an IPv4 range such as 10\.213\.0\.0\/16; it is 'ten\/8'/,
  );
  expect(loadConfig({}, { root: '/tmp' }).deployments.networkPool.size).toBe(25);
});
