import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ComposeLimitError, parseComposeText } from '../infra/compose/composeLimits.js';
import { finalizeConfig } from '../infra/compose/composeProject.js';
import { LABELS } from '../infra/docker/conventions.js';
import { openRepositoryJail } from '../infra/jail/repositoryJail.js';
import { refusalSentences } from '../test/refusalSentences.js';
import { runCheck as checkOnce } from './composeCheck.js';
import { checkComposePolicy } from './composePolicy.js';
import { checkDockerfile, expandArgs } from './dockerfilePolicy.js';
import { imageReferenceProblem } from './imageReference.js';

const WS = '11111111-2222-3333-4444-555555555555';
const ID64 = 'a'.repeat(20) + '0123456789abcdef'.repeat(2) + 'b'.repeat(12);
const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'slipway-rules-')));
const repo = path.join(base, 'repo');
mkdirSync(path.join(repo, 'web'), { recursive: true });
writeFileSync(path.join(base, 'secret.env'), 'MARKER=host');
writeFileSync(path.join(repo, 'ok.env'), 'A=1');
/** Every sentence these rules produce is looked at once more at the end: none shows where the checkout is. */
const refusals = refusalSentences();
const runCheck: typeof checkOnce = (task) => refusals.ofResult(checkOnce(task));
afterAll(() => {
  refusals.expectNoHostPath(base);
  rmSync(base, { recursive: true, force: true });
});
const jail = openRepositoryJail(repo);

describe('image references', () => {
  it.each([
    ['busybox:1.36'],
    ['registry.example.com:5000/team/app:v1'],
    [`redis@sha256:${ID64}`],
    ['cafe:1.0'],
    [`slipway-${WS}-web:d1`],
  ])('allows %s', (reference) => expect(imageReferenceProblem(reference, WS)).toBeUndefined());

  it.each([
    [ID64.slice(0, 12), 'image_id'],
    [ID64, 'image_id'],
    [`sha256:${ID64}`, 'image_id'],
    [`sha256:${ID64.slice(0, 12)}`, 'image_id'],
    ['abc123', 'image_id'],
    [`${ID64.slice(0, 12)}:latest`, 'image_id'],
    ['slipway-0b9c-web:d1', 'other_workspace'],
    ['localhost:5000/slipway-other-web', 'other_workspace'],
    ['Busybox', 'not_a_reference'],
    ['', 'not_a_reference'],
    ['a b', 'not_a_reference'],
  ])('refuses %s (%s)', (reference, problem) => expect(imageReferenceProblem(reference, WS)).toBe(problem));
});

describe('Dockerfile bases', () => {
  const check = (text: string, args: Record<string, string> = {}) =>
    checkDockerfile(text, new Map(Object.entries(args)), WS).map((f) => `${f.instruction} | ${f.reason}`);

  it('allows registry bases, scratch, its own stages and its own images', () => {
    const text = `ARG BASE=busybox:1.36
FROM \${BASE} AS build
FROM scratch
COPY --from=build /bin /bin
COPY --from=0 /x /x
FROM slipway-${WS}-web:d1
RUN --mount=type=cache,target=/c echo
`;
    expect(check(text)).toEqual([]);
  });

  it('refuses IDs, ID prefixes and other workspaces in FROM, COPY --from, RUN --mount and # syntax', () => {
    const text = `# syntax=${ID64.slice(0, 12)}
ARG BASE=busybox:1.36
FROM \${BASE}
FROM sha256:${ID64}
ARG SRC=slipway-other-web:1
COPY --from=\${SRC} /a /b
COPY --from=${ID64.slice(0, 12)} /a /b
RUN --mount=type=bind,from=${ID64},target=/x \\
    cat /x/secret
FROM $UNSET
`;
    expect(check(text)).toEqual([
      `# syntax=${ID64.slice(0, 12)} | an image ID; use a registry reference (name[:tag][@digest])`,
      `FROM sha256:${ID64} | an image ID; use a registry reference (name[:tag][@digest])`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} is the point
      'COPY --from=${SRC} /a /b | images of other workspaces',
      `COPY --from=${ID64.slice(0, 12)} /a /b | an image ID; use a registry reference (name[:tag][@digest])`,
      `RUN --mount=type=bind,from=${ID64},target=/x \\ | an image ID; use a registry reference (name[:tag][@digest])`,
      'FROM $UNSET | not a registry reference (name[:tag][@digest])',
    ]);
  });

  it('expands ARG defaults overridden by the compose build args', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} is the point
    expect(check('ARG BASE=busybox:1.36\nFROM ${BASE}\n', { BASE: ID64 })).toHaveLength(1);
    expect(
      expandArgs(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${...} is the point
        '${A:-x}-${B-y}-${C:+z}-$D',
        new Map([
          ['C', '1'],
          ['D', 'd'],
        ]),
      ),
    ).toBe('x-y-z-d');
  });
});

describe('limits', () => {
  it('refuses alias bombs, too many keys, too many services and oversized files before any check', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++)
      bomb.push(
        `${'b'.repeat(i)}: &${'b'.repeat(i)} [${`*${i === 1 ? 'a' : 'b'.repeat(i - 1)},`.repeat(9)}]`,
      );
    expect(() => parseComposeText(bomb.join('\n'), 'compose.yaml')).toThrow(/aliases/);
    const lines = `services:\n  web:\n    environment:\n${Array.from({ length: 40_000 }, (_, i) => `      K${i}: v`).join('\n')}\n`;
    expect(() => parseComposeText(lines, 'compose.yaml')).toThrow(
      'compose.yaml has more than 30000 lines and list items',
    );
    const keys = `services: {web: {environment: {${Array.from({ length: 12_000 }, (_, i) => `K${i}: v`).join(', ')}}}}`;
    expect(() => parseComposeText(keys, 'compose.yaml')).toThrow(
      'compose.yaml has more than 20000 keys and values',
    );
    const many = `services:\n${Array.from({ length: 101 }, (_, i) => `  s${i}: {image: busybox}`).join('\n')}\n`;
    expect(() => parseComposeText(many, 'compose.yaml')).toThrow('defines 101 services; the limit is 100');
    expect(() => parseComposeText('x'.repeat(1024 * 1024 + 1), 'compose.yaml')).toThrow(ComposeLimitError);
  });
});

describe('raw compose files (before Compose reads them)', () => {
  it('refuses env_file, label_file and extends leaving the repository, also through merge keys and links', () => {
    symlinkSync('../secret.env', path.join(repo, 'linked.env'));
    symlinkSync(base, path.join(repo, 'updir'));
    writeFileSync(
      path.join(repo, 'base.yml'),
      'services:\n  b:\n    image: busybox\n    env_file: ./linked.env\n',
    );
    const text = `x-common: &common
  env_file: /etc/hostname
services:
  web:
    <<: *common
    image: busybox
  api:
    image: busybox
    env_file: [./ok.env, {path: ./linked.env, required: false}]
    label_file: updir/secret.env
  job:
    extends: { file: ./base.yml, service: b }
  dollar:
    image: busybox
    env_file: \${HOME}/x.env
include: [../other.yml]
`;
    writeFileSync(path.join(repo, 'compose.yaml'), text);
    const result = runCheck({ kind: 'read', repoDir: repo, fileName: 'compose.yaml', env: {} });
    expect(result.kind === 'read' && result.violations.map((v) => v.message)).toEqual([
      "Service 'web' uses env_file: /etc/hostname, which points outside the repository",
      "Service 'api' uses env_file: ./linked.env, which points outside the repository",
      "Service 'api' uses label_file: updir/secret.env, which points outside the repository",
      // An unset variable interpolates to nothing (as in Compose): the path is then a host path, refused.
      "Service 'dollar' uses env_file: /x.env, which points outside the repository",
      "Service 'b' uses env_file: ./linked.env, which points outside the repository",
      'The compose file uses include: ../other.yml, which points outside the repository',
    ]);
    rmSync(path.join(repo, 'compose.yaml'));
  });

  it('refuses a compose file or .env that is a link out, naming the file and never its content', () => {
    const other = path.join(base, 'repo2');
    mkdirSync(other);
    symlinkSync(path.join(base, 'secret.env'), path.join(other, 'compose.yaml'));
    expect(runCheck({ kind: 'read', repoDir: other, fileName: 'compose.yaml', env: {} })).toEqual({
      kind: 'refused',
      message: 'compose.yaml points outside the repository',
    });
    rmSync(path.join(other, 'compose.yaml'));
    writeFileSync(path.join(other, 'compose.yaml'), 'services: {web: {image: busybox}}');
    symlinkSync('../secret.env', path.join(other, '.env'));
    const result = runCheck({ kind: 'read', repoDir: other, fileName: 'compose.yaml', env: {} });
    expect(JSON.stringify(result)).not.toContain('MARKER');
    expect(result).toMatchObject({
      violations: [{ message: "The repository's .env points outside the repository" }],
    });
  });
});

describe('services that would only fail at up', () => {
  it('refuses a service with neither image nor build once the override file is merged, naming it', () => {
    const other = path.join(base, 'override');
    mkdirSync(other);
    writeFileSync(path.join(other, 'docker-compose.yml'), 'services:\n  web:\n    image: busybox\n');
    writeFileSync(
      path.join(other, 'docker-compose.override.yml'),
      'services:\n  web:\n    ports: ["8080"]\n  mailer:\n    expose: ["1025"]\n',
    );
    const read = () => runCheck({ kind: 'read', repoDir: other, fileName: 'docker-compose.yml', env: {} });
    expect(read()).toEqual({
      kind: 'refused',
      message:
        "Service 'mailer' has neither an image nor a build in docker-compose.yml with docker-compose.override.yml merged over it: give each service an image or a build section",
    });
    // Given what it runs, the same project reads; a service behind a profile is not started, so not asked.
    writeFileSync(
      path.join(other, 'docker-compose.override.yml'),
      'services:\n  mailer:\n    image: busybox\n  debug:\n    profiles: [debug]\n',
    );
    expect(read()).toMatchObject({ kind: 'read', violations: [] });
    rmSync(path.join(other, 'docker-compose.override.yml'));
    writeFileSync(path.join(other, 'docker-compose.yml'), 'services:\n  a: {}\n  b:\n    command: [sh]\n');
    expect(read()).toEqual({
      kind: 'refused',
      message:
        "Services 'a', 'b' have neither an image nor a build in docker-compose.yml: give each service an image or a build section",
    });
  });
});

describe('networks, volumes and shared namespaces stay in the project', () => {
  const context = { jail, workspaceId: WS, projectName: `slipway-${WS}` };
  const messages = (config: unknown) =>
    refusals.ofViolations(checkComposePolicy(config, context)).map((v) => v.message);

  it('allows sharing network, PID and IPC namespaces and volumes within the project, and fixed names', () => {
    const config = {
      services: {
        db: { image: 'busybox', ipc: 'shareable' },
        web: {
          image: 'busybox',
          network_mode: 'service:db',
          pid: 'service:db',
          ipc: 'service:db',
          volumes_from: ['db', 'service:db:ro'],
        },
      },
      networks: { default: { name: `slipway-${WS}_default` }, shared: { name: 'shared' } },
      volumes: {
        data: {},
        fixed: { name: 'app_data-1.0' },
        own: { external: true, name: `slipway-${WS}_data` },
      },
    };
    expect(messages(config)).toEqual([]);
  });

  it('refuses container: and host modes, foreign services, external: of others and names Docker would not take', () => {
    const config = {
      services: {
        web: { image: 'busybox', network_mode: 'container:other', volumes_from: ['container:x', 'ghost'] },
        api: { image: 'busybox', network_mode: 'service:ghost', pid: 'container:x', ipc: 'service:ghost' },
        job: { image: 'busybox', pid: 'host', ipc: 'host' },
      },
      networks: {
        ext: { external: true },
        theirs: { external: true, name: 'slipway-other_default' },
        odd: { name: 'a b' },
      },
      volumes: {
        ext: { external: { name: 'pgdata' } },
        // The project's name alone is none of its volumes' names.
        tricky: { external: true, name: `slipway-${WS}` },
        empty: { name: '' },
      },
    };
    expect(messages(config)).toEqual([
      "Service 'web' uses network_mode: container:other, which is not allowed",
      "Service 'web' uses volumes_from: container:x (only services of this project), which is not allowed",
      "Service 'web' uses volumes_from: ghost (only services of this project), which is not allowed",
      "Service 'api' uses network_mode: service:ghost (only services of this project), which is not allowed",
      "Service 'api' uses pid: container:x, which is not allowed",
      "Service 'api' uses ipc: service:ghost (only services of this project), which is not allowed",
      "Service 'job' uses pid: host, which is not allowed",
      "Service 'job' uses ipc: host, which is not allowed",
      "The compose file uses networks.ext.external: true, which is not allowed: the network 'ext' was not created by this workspace, and a workspace uses only its own networks and volumes (remove external: true and the workspace gets a network of its own for 'ext')",
      "The compose file uses networks.theirs.external: true, which is not allowed: the network 'slipway-other_default' was not created by this workspace, and a workspace uses only its own networks and volumes (remove external: true and the workspace gets a network of its own for 'theirs')",
      'The compose file uses networks.odd.name: a b, which is not allowed (a name is 1 to 128 letters, digits, dots, dashes and underscores)',
      "The compose file uses volumes.ext.external: true, which is not allowed: the volume 'pgdata' was not created by this workspace, and a workspace uses only its own networks and volumes (remove external: true and the workspace gets a volume of its own for 'ext')",
      `The compose file uses volumes.tricky.external: true, which is not allowed: the volume 'slipway-${WS}' was not created by this workspace, and a workspace uses only its own networks and volumes (remove external: true and the workspace gets a volume of its own for 'tricky')`,
      'The compose file uses volumes.empty.name: , which is not allowed (a name is 1 to 128 letters, digits, dots, dashes and underscores)',
    ]);
  });

  it('gives a fixed name the workspace’s own real name, the same on every deployment and different in another workspace', () => {
    const project = (workspaceId: string) =>
      finalizeConfig(
        {
          services: { web: { image: 'busybox', volumes: ['data:/data'], networks: ['shared'] } },
          networks: { shared: { name: 'shared' }, own: { external: true, name: `slipway-${workspaceId}_x` } },
          volumes: { data: { name: 'app_data' }, plain: {}, kept: { name: `slipway-${workspaceId}_kept` } },
        },
        {
          workspaceId,
          userId: 'u1',
          deploymentId: 'd1',
          imageNames: {},
          publishAddress: '127.0.0.1',
          limits: { cpusPerService: 1, memoryBytesPerService: 64 * 1024 * 1024 },
        },
      );
    const other = '99999999-2222-3333-4444-555555555555';
    expect([project(WS).networks, project(WS).volumes]).toEqual([
      {
        shared: { name: `slipway-${WS}_shared` },
        own: { external: true, name: `slipway-${WS}_x` },
      },
      // A name already the workspace's own (the only fixed name allowed before) keeps the data it holds.
      { data: { name: `slipway-${WS}_app_data` }, plain: {}, kept: { name: `slipway-${WS}_kept` } },
    ]);
    expect(project(other).volumes).toMatchObject({ data: { name: `slipway-${other}_app_data` } });
    // The services still use the keys the file gave them.
    expect(project(WS).services).toMatchObject({ web: { volumes: ['data:/data'], networks: ['shared'] } });
  });

  const finalizeServices = (services: Record<string, unknown>) =>
    finalizeConfig(
      { services },
      {
        workspaceId: WS,
        userId: 'u1',
        deploymentId: 'd1',
        imageNames: {},
        publishAddress: '127.0.0.1',
        limits: { cpusPerService: 1, memoryBytesPerService: 64 * 1024 * 1024 },
      },
    ).services as Record<string, { ipc?: string; pid?: string; labels: Record<string, string> }>;

  it('makes a service another joins with ipc: service:x shareable, unless it says otherwise', () => {
    const finalized = finalizeServices({
      app: { image: 'busybox' },
      side: { image: 'busybox', pid: 'service:app', ipc: 'service:app' },
      own: { image: 'busybox', ipc: 'private' },
      peer: { image: 'busybox', ipc: 'service:own' },
    });
    expect(Object.fromEntries(Object.entries(finalized).map(([name, s]) => [name, [s.ipc, s.pid]]))).toEqual({
      app: ['shareable', undefined],
      side: ['service:app', 'service:app'],
      own: ['private', undefined],
      peer: ['service:own', undefined],
    });
  });

  it('labels a service that joins another with that one’s configuration, so Compose recreates both together', () => {
    const version = (appCommand: string, sideCommand = 'watch') =>
      finalizeServices({
        app: { image: 'busybox', command: appCommand },
        side: { image: 'busybox', pid: 'service:app', command: sideCommand },
        probe: { image: 'busybox', network_mode: 'service:side' },
        alone: { image: 'busybox' },
      });
    const joins = (services: ReturnType<typeof version>) =>
      Object.fromEntries(Object.entries(services).map(([name, s]) => [name, s.labels[LABELS.joins]]));
    const first = joins(version('serve'));
    expect(first.side).toMatch(/^app@[0-9a-f]{16}$/);
    expect(first.probe).toMatch(/^side@[0-9a-f]{16}$/);
    expect(first.app).toBeUndefined();
    expect(first.alone).toBeUndefined();
    // The same version, the same labels; a changed app changes the services that join it, through the chain.
    expect(joins(version('serve'))).toEqual(first);
    const changed = joins(version('serve --v2'));
    expect([changed.side === first.side, changed.probe === first.probe]).toEqual([false, false]);
    // A changed joining service leaves the one it joins as it was.
    const sideChanged = joins(version('serve', 'watch --v2'));
    expect([sideChanged.side === first.side, sideChanged.probe === first.probe]).toEqual([true, false]);
  });

  it('refuses images by ID, a build that tags or caches from foreign images, and bind links out', () => {
    symlinkSync(base, path.join(repo, 'hostdir'));
    const found = messages({
      services: {
        a: { image: ID64.slice(0, 12) },
        b: { build: { context: `${repo}/web`, tags: ['redis:7'], cache_from: [`sha256:${ID64}`] } },
        c: { image: 'busybox', volumes: ['./hostdir:/data'] },
        d: { build: { context: `${repo}/hostdir` } },
      },
    }).join('\n');
    expect(found).toContain(`Service 'a' uses image: ${ID64.slice(0, 12)} (an image ID`);
    expect(found).toContain("Service 'b' uses build.tags");
    expect(found).toContain("Service 'b' uses build.cache_from: sha256:");
    expect(found).toContain("Service 'c' uses volumes: ./hostdir, which points outside the repository");
    expect(found).toContain("Service 'd' uses build.context: ./hostdir, which points outside the repository");
  });
});
