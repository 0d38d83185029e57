import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalVault } from '../infra/vault/localVault.js';
import { createRevisionPlans, type RevisionPlan } from './revisionPlans.js';

const SECRET = `tok-${randomBytes(12).toString('hex')}`;
const plan = (deploymentId: string): RevisionPlan => ({
  deploymentId,
  commitSha: 'abc1234',
  normalized: { services: { web: { image: 'busybox:1.36', environment: { SECRET_TOKEN: SECRET } } } },
  services: [],
  imageNames: {},
  roles: [],
  hostPorts: {},
  envDigest: 'digest',
});

describe('revision plans on disk', () => {
  const dirs: string[] = [];
  const store = () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'slipway-plans-'));
    dirs.push(dataDir);
    const plans = createRevisionPlans({ dataDir, vault: createLocalVault(randomBytes(32)) });
    return { dataDir, plans, file: (id: string) => path.join(dataDir, 'revisions', 'ws', `${id}.json`) };
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a plan sealed: its values are not in the file, and it reads back whole', async () => {
    const { plans, file } = store();
    await plans.save('ws', plan('d1'));
    expect(readFileSync(file('d1'), 'utf8')).not.toContain(SECRET);
    expect(readFileSync(file('d1'), 'utf8')).not.toContain('SECRET_TOKEN');
    expect(await plans.load('ws', 'd1')).toEqual(plan('d1'));
    expect(await plans.has('ws', 'd1')).toBe(true);
    expect(await plans.has('ws', 'd2')).toBe(false);
    expect(await plans.load('ws', 'd2')).toBeUndefined();
  });

  it('seals at start the plans an older version wrote in the clear, and reads them the same', async () => {
    const { dataDir, plans, file } = store();
    mkdirSync(path.join(dataDir, 'revisions', 'ws'), { recursive: true });
    writeFileSync(file('old'), JSON.stringify(plan('old')));
    writeFileSync(`${file('old')}.partial`, 'half a plan');
    expect(await plans.load('ws', 'old')).toEqual(plan('old'));
    expect(await plans.sealLegacyPlans(pino({ level: 'silent' }))).toBe(1);
    expect(readFileSync(file('old'), 'utf8')).not.toContain(SECRET);
    expect(readdirSync(path.join(dataDir, 'revisions', 'ws'))).toEqual(['old.json']);
    expect(await plans.load('ws', 'old')).toEqual(plan('old'));
    // Sealed plans are left as they are.
    expect(await plans.sealLegacyPlans(pino({ level: 'silent' }))).toBe(0);
  });

  it('prunes to the kept versions and removes a workspace', async () => {
    const { dataDir, plans } = store();
    for (const id of ['a', 'b', 'c']) await plans.save('ws', plan(id));
    await plans.prune('ws', ['c', 'a']);
    expect(readdirSync(path.join(dataDir, 'revisions', 'ws')).sort()).toEqual(['a.json', 'c.json']);
    await plans.removeWorkspace('ws');
    expect(await plans.has('ws', 'a')).toBe(false);
  });
});
