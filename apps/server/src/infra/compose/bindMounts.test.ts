import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { placeBindMounts, removeWorkspaceMounts, workspaceMountsDir } from './bindMounts.js';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'slipway-mounts-')));
const repo = path.join(base, 'repo');
const dataDir = path.join(base, 'data');
mkdirSync(path.join(repo, 'config'), { recursive: true });
writeFileSync(path.join(repo, 'nginx.conf'), 'events {}\n');
writeFileSync(path.join(repo, 'config', 'app.json'), '{"seeded": true}\n');
writeFileSync(path.join(base, 'host-secret'), 'MARKER\n');
symlinkSync(path.join(base, 'host-secret'), path.join(repo, 'config', 'leak'));
symlinkSync('app.json', path.join(repo, 'config', 'alias.json'));
writeFileSync(path.join(repo, 'key.txt'), 'k\n');
afterAll(() => rmSync(base, { recursive: true, force: true }));

const WS = 'ws-1';
const config = {
  services: {
    web: {
      image: 'nginx',
      volumes: [
        `${repo}/nginx.conf:/etc/nginx/nginx.conf:ro`,
        { type: 'bind', source: `${repo}/config`, target: '/app/config' },
        `${repo}/data:/var/lib/app`,
        'named:/cache',
      ],
      secrets: ['key', { source: 'key', target: 'other.txt' }],
      configs: [{ source: 'key', target: '/etc/key' }],
    },
  },
  secrets: { key: { file: `${repo}/key.txt` } },
  configs: { key: { file: `${repo}/key.txt` } },
};
const place = (deploymentId: string) =>
  placeBindMounts(config, { repoDir: repo, dataDir, workspaceId: WS, deploymentId });
const store = workspaceMountsDir(dataDir, WS);

describe('bind mounts from the repository', () => {
  it('mounts read-only files from the revision and writable directories from the workspace storage', async () => {
    const placed = (await place('d1')) as { services: { web: { volumes: unknown[] } } };
    expect(placed).not.toHaveProperty('secrets');
    expect(placed.services.web.volumes).toEqual([
      `${store}/revisions/d1/nginx.conf:/etc/nginx/nginx.conf:ro`,
      { type: 'bind', source: `${store}/data/config`, target: '/app/config' },
      `${store}/data/data:/var/lib/app`,
      'named:/cache',
      { type: 'bind', source: `${store}/revisions/d1/key.txt`, target: '/run/secrets/key', read_only: true },
      {
        type: 'bind',
        source: `${store}/revisions/d1/key.txt`,
        target: '/run/secrets/other.txt',
        read_only: true,
      },
      { type: 'bind', source: `${store}/revisions/d1/key.txt`, target: '/etc/key', read_only: true },
    ]);
    expect(readFileSync(`${store}/revisions/d1/nginx.conf`, 'utf8')).toBe('events {}\n');
    // A link inside the repository is copied as its target; a link out is not copied at all.
    expect(readFileSync(`${store}/data/config/alias.json`, 'utf8')).toBe('{"seeded": true}\n');
    expect(existsSync(`${store}/data/config/leak`)).toBe(false);
  });

  it('keeps writable data across redeploys, and refuses a link a container left in it', async () => {
    writeFileSync(`${store}/data/config/app.json`, '{"written": "by the app"}\n');
    await place('d2');
    expect(readFileSync(`${store}/data/config/app.json`, 'utf8')).toBe('{"written": "by the app"}\n');
    rmSync(`${store}/data/data`, { recursive: true });
    symlinkSync('/etc', `${store}/data/data`);
    await expect(place('d3')).rejects.toThrow(
      "Service 'web' mounts ./data, which leads outside the workspace's storage",
    );
  });

  it('goes with the workspace', async () => {
    await removeWorkspaceMounts(dataDir, WS);
    expect(existsSync(store)).toBe(false);
  });
});
