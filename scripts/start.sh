#!/bin/sh
# `npm start`: build what the server serves and runs (the web app with Vite, the server compiled to JavaScript),
# then replace this shell with one Node process running the compiled server: no tsx, no wrapper shell left.
#   --conditions=slipway-compiled  Node reads the contract's compiled JavaScript (packages/contract/package.json).
#   --liftoff-only                 the embedded database (PGlite, WebAssembly) runs on V8's baseline compiler: about
#                                  100 MB less resident code, and small queries measured no slower (bench/footprint.ts).
#   --max-semi-space-size=2        a 2 MB young generation: about 30 MB less resident heap for an idle control plane.
#   --expose-gc                    lets the server collect the engine that created the embedded database at once
#                                  (infra/db/client.ts) instead of keeping its memory until V8's next full collection.
#   MALLOC_MMAP_THRESHOLD_=131072  glibc serves allocations over 128 kB from mmap and returns them when freed; by
#                                  default the threshold grows with the first large buffer freed (the engine's 9 MB
#                                  file read at start) and the freed memory stays in the process: about 12 MB.
# SLIPWAY_SKIP_BUILD=1 starts what was built last (`npm run build`), as the benches and tests do.
set -eu
cd "$(dirname "$0")/.."
[ "${SLIPWAY_SKIP_BUILD:-}" = 1 ] || npm run build --silent
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
exec node --conditions=slipway-compiled --liftoff-only --max-semi-space-size=2 --expose-gc \
  apps/server/dist/main.js "$@"
