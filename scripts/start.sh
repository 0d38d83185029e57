#!/bin/sh
# `npm start`: build what the server serves and runs (the web app with Vite, the server compiled to JavaScript),
# then replace this shell with one Node process running the compiled server: no tsx, no wrapper left waiting.
# `--conditions=slipway-compiled` makes Node read the contract's compiled JavaScript (packages/contract/package.json).
set -eu
cd "$(dirname "$0")/.."
npm run build --silent
exec node --conditions=slipway-compiled apps/server/dist/main.js "$@"
