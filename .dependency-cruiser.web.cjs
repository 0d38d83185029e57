/**
 * The web app's layering (docs/ARCHITECTURE.md, "The web app"), checked by `npm run check`:
 *
 *   app/                      composes the screens: routes, layouts, headers, guards; imported by nothing but main.tsx
 *   features/<area>/          one folder per screen area; imports api/, components/, lib/, never app/ nor another area
 *   api/, components/, lib/   shared by every screen; import neither features/ nor app/
 *
 * What several areas share moves down into components/ or lib/ rather than being imported sideways.
 * Test files (*.test.ts) are not cruised: they sit beside the code they test.
 */
const SRC = '^apps/web/src/';
const SHARED = `${SRC}(api|components|lib)/`;

module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      comment: 'Folders depend on each other one way: a cycle means two folders share one concept.',
      severity: 'error',
      scope: 'folder',
      from: { path: SRC },
      to: { circular: true },
    },
    {
      name: 'shared-imports-no-screens',
      comment:
        'api/, components/ and lib/ serve every screen, so they import no feature and nothing in app/.',
      severity: 'error',
      from: { path: SHARED },
      to: { path: `${SRC}(features|app)/` },
    },
    {
      name: 'features-import-no-app',
      comment: 'app/ composes the features (routes, layouts); a feature never reaches back up into it.',
      severity: 'error',
      from: { path: `${SRC}features/` },
      to: { path: `${SRC}app/` },
    },
    {
      name: 'no-sideways-feature-imports',
      comment:
        'A feature imports no other feature: what two areas share lives in components/ or lib/. ' +
        'admin/ holds sub-folders (admin/monitoring, admin/users) of one area, so they count as admin/.',
      severity: 'error',
      from: { path: `${SRC}features/([^/]+)/` },
      to: { path: `${SRC}features/`, pathNot: `${SRC}features/$1/` },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.base.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '/dist/', '\\.test\\.tsx?$'] },
  },
};
