import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { describeWith } from '../../test/services.js';
import { imageIdsInBuildOutput, nameLeftoverStages } from './buildStages.js';
import { removeProjectResources } from './projectResources.js';

const run = promisify(execFile);

describe('image ids in build output', () => {
  it('reads the ids the classic builder prints, and nothing else', () => {
    const ids = imageIdsInBuildOutput([
      'Step 1/4 : FROM busybox:1.36 AS builder',
      ' ---> 9df644f4a4a8',
      ' ---> Running in b4a5aff8b9ae',
      'Removing intermediate container b4a5aff8b9ae',
      ' ---> 7f5862d9bd9b',
      'web uses an image, skipping ---> 123456789abc',
    ]);
    expect([...ids]).toEqual(['9df644f4a4a8', '7f5862d9bd9b']);
  });
});

describeWith('docker')('leftover build stages of the classic builder', () => {
  const docker = new Docker({ socketPath: '/var/run/docker.sock' });
  const workspaceId = randomUUID();
  const dir = mkdtempSync(path.join(tmpdir(), 'slipway-stages-'));
  const tag = `slipway-${workspaceId}-web:test`;

  afterAll(async () => {
    await removeProjectResources(docker, workspaceId, { volumes: false, images: true }).catch(
      () => undefined,
    );
    await docker
      .getImage(tag)
      .remove({ force: true })
      .catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the stage a multi-stage build leaves behind, so removing the workspace removes it too', async () => {
    // A nonce keeps the first stage out of any other build's cache.
    writeFileSync(
      path.join(dir, 'Dockerfile'),
      `FROM busybox:1.36 AS builder\nRUN echo ${workspaceId} > /stamp\nFROM busybox:1.36\nCOPY --from=builder /stamp /stamp\n`,
    );
    const { stdout } = await run('docker', ['build', '-t', tag, dir], {
      env: { ...process.env, DOCKER_BUILDKIT: '0' },
    });
    const output = stdout.split('\n');
    const danglingOfBuild = async () => {
      const made = imageIdsInBuildOutput(output);
      return (await docker.listImages({ filters: { dangling: ['true'] } })).filter((image) =>
        [...made].some((short) => image.Id.replace(/^sha256:/, '').startsWith(short)),
      );
    };
    const [stage, ...more] = await danglingOfBuild();
    expect(stage, 'the classic builder left the builder stage dangling').toBeDefined();
    expect(more).toHaveLength(0);

    const owner = { workspaceId, deploymentId: randomUUID() };
    expect(await nameLeftoverStages(docker, output, owner)).toBe(1);
    expect(await danglingOfBuild()).toHaveLength(0);
    // Still there as cache while the workspace lives, under a name of the workspace and the deployment.
    const named = await docker.getImage(stage!.Id).inspect();
    expect(named.RepoTags).toEqual([
      `slipway-${workspaceId}-stage.${stage!.Id.replace(/^sha256:/, '').slice(0, 12)}:${owner.deploymentId}`,
    ]);
    // A later build that found the stage in its cache names it for its own deployment too.
    const later = { workspaceId, deploymentId: randomUUID() };
    expect(await nameLeftoverStages(docker, output, later)).toBe(1);
    expect((await docker.getImage(stage!.Id).inspect()).RepoTags).toHaveLength(2);

    await removeProjectResources(docker, workspaceId, { volumes: false, images: true });
    await expect(docker.getImage(stage!.Id).inspect()).rejects.toThrow(/no such image/i);
  }, 120_000);
});
