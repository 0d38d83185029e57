#!/bin/sh
# `npm start`: build what the server serves and runs (the web app with Vite, the server compiled to JavaScript),
# then replace this shell with one Node process running the compiled server: no tsx, no wrapper shell left.
#   --conditions=slipway-compiled  Node reads the contract's compiled JavaScript (packages/contract/package.json).
#   --liftoff-only                 the embedded database (PGlite, WebAssembly) runs on V8's baseline compiler: about
#                                  100 MB less resident code, and small queries measured no slower (bench/footprint.ts).
#   --max-semi-space-size=2        a 2 MB young generation: about 30 MB less resident heap for an idle control plane.
# SLIPWAY_SKIP_BUILD=1 starts what was built last (`npm run build`), as the benches and tests do.
set -eu
cd "$(dirname "$0")/.."
[ "${SLIPWAY_SKIP_BUILD:-}" = 1 ] || npm run build --silent
exec node --conditions=slipway-compiled --liftoff-only --max-semi-space-size=2 apps/server/dist/main.js "$@"
