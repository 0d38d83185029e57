/**
 * The server's layering (docs/ARCHITECTURE.md, "Imports run downhill"), checked by `npm run check`:
 *
 *   platform/, main.ts        the composition root: builds everything, imported by nothing but tests and benches
 *   domain folders            users, auth, workspaces, logs, alerts, deployments, billing, ...: no cycles between them
 *   http/, scheduling/        shared primitives: import only infra/, domain/ (errors) and config/
 *   vm-providers/             the VM adapters (local, ssh, azure) deployments/ and workspaces/ use: only the bottom
 *   cluster/                  the Compose → Swarm translation a rollout engine plugs in: only the bottom
 *   infra/, domain/, config/  the bottom: adapters, errors, configuration; import no domain folder
 *
 * Test files (*.test.ts) and src/test/ sit above everything and may import anything; production code never
 * imports them. *.test.ts files are not cruised at all (they would join every folder to platform/ through the
 * harness); src/test/ is, so that production code importing it shows up.
 */
const SRC = '^apps/server/src/';
const TESTS = ['\\.test\\.ts$', `${SRC}test/`];
const BOTTOM = `${SRC}(infra|domain|config)/`;
const PRIMITIVES = `${SRC}(http|scheduling)/`;
const VM_PROVIDERS = `${SRC}vm-providers/`;
const CLUSTER = `${SRC}cluster/`;

module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      comment: 'Folders depend on each other one way: a cycle means two folders share one concept.',
      severity: 'error',
      scope: 'folder',
      from: { path: SRC, pathNot: TESTS },
      to: { circular: true },
    },
    {
      name: 'no-file-cycles',
      comment:
        'Files depend on each other one way too: a cycle means a type or helper both use wants a file of its own.',
      severity: 'error',
      from: { path: SRC, pathNot: TESTS },
      to: { circular: true },
    },
    {
      name: 'bottom-imports-no-domain',
      comment: 'infra/, domain/ and config/ are the bottom layer: they import nothing above them.',
      severity: 'error',
      from: { path: BOTTOM, pathNot: TESTS },
      to: { path: SRC, pathNot: [BOTTOM, ...TESTS] },
    },
    {
      name: 'primitives-import-only-the-bottom',
      comment: 'http/ and scheduling/ serve every domain folder, so they import none.',
      severity: 'error',
      from: { path: PRIMITIVES, pathNot: TESTS },
      to: { path: SRC, pathNot: [BOTTOM, PRIMITIVES, ...TESTS] },
    },
    {
      name: 'vm-providers-import-only-the-bottom',
      comment: 'vm-providers/ are adapters deployments/ and workspaces/ use: they import no domain folder.',
      severity: 'error',
      from: { path: VM_PROVIDERS, pathNot: TESTS },
      to: { path: SRC, pathNot: [BOTTOM, VM_PROVIDERS, ...TESTS] },
    },
    {
      name: 'cluster-imports-only-the-bottom',
      comment:
        'cluster/ (Compose → Swarm) is product logic the deployment pipeline calls: it imports no domain folder, so the pipeline can.',
      severity: 'error',
      from: { path: CLUSTER, pathNot: TESTS },
      to: { path: SRC, pathNot: [BOTTOM, CLUSTER, ...TESTS] },
    },
    {
      name: 'only-the-entry-imports-platform',
      comment:
        'platform/ is the composition root: main.ts, tests and benches start it; nothing else imports it.',
      severity: 'error',
      from: { path: SRC, pathNot: [`${SRC}platform/`, `${SRC}main\\.ts$`, ...TESTS] },
      to: { path: `${SRC}platform/` },
    },
    {
      name: 'production-imports-no-tests',
      comment: 'src/test/ and *.test.ts are test helpers; shipped code never loads them.',
      severity: 'error',
      from: { path: SRC, pathNot: TESTS },
      to: { path: TESTS },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.base.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '/dist/', '\\.test\\.ts$'] },
  },
};
