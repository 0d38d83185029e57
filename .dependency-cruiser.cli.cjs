/**
 * The CLI's layering (docs/ARCHITECTURE.md, "The CLI"), checked by `npm run check`:
 *
 *   main.ts                   the entry: reads the command line, picks the server, runs one command
 *   commands/                 one file per area of commands; commandTable.ts is their one table
 *   the rest of src/          the client, settings, output, parsers: shared by the commands, import none of them
 *
 * The CLI talks to Slipway over HTTP only: shipped code imports the contract, never the server or the web app
 * (its Docker tests start a server, so test files and their helpers, *.test-helper.ts, are not cruised).
 */
const SRC = '^packages/cli/src/';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'Files depend on each other one way.',
      severity: 'error',
      from: { path: SRC },
      to: { circular: true },
    },
    {
      name: 'only-the-contract-from-the-repository',
      comment: 'The CLI reaches the server through its API; the contract is the only code it shares.',
      severity: 'error',
      from: { path: SRC },
      to: { path: '^(apps|e2e|bench)/' },
    },
    {
      name: 'shared-imports-no-commands',
      comment: 'The client, settings and output serve every command, so they import none.',
      severity: 'error',
      from: { path: SRC, pathNot: [`${SRC}commands/`, `${SRC}main\\.ts$`] },
      to: { path: `${SRC}(commands/|main\\.ts$)` },
    },
    {
      name: 'commands-import-no-entry',
      comment: 'main.ts runs the commands; a command never reaches back up into it.',
      severity: 'error',
      from: { path: `${SRC}commands/` },
      to: { path: `${SRC}main\\.ts$` },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.base.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '/dist/', '\\.test(-helper)?\\.ts$'] },
  },
};
