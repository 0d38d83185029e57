#!/usr/bin/env bash
# The whole test suite: starts PostgreSQL, Redis and Docker on loopback (installing them if needed),
# builds the web app, runs the unit and integration tests, then the browser tests, and stops what it started.
# Extra arguments go to both vitest runs (e.g. a file filter).
set -euo pipefail
cd "$(dirname "$0")/.."

[ -d node_modules ] || npm install --no-audit --no-fund
source scripts/services.sh
trap stop_services EXIT

export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
export TEST_DOCKER=1
npm run build --silent
# The real database images several test files deploy (built once per machine, before any test needs them:
# two test files building them at once, or one deploying before another built them, failed a fresh machine).
bash scripts/database-images.sh
# A project without test files fails the run, except when a filter given here leaves one empty.
filtered=()
[ $# -gt 0 ] && filtered=(--passWithNoTests)
npx vitest run "${filtered[@]}" --project server --project web --project contract --project cli "$@"
npx vitest run "${filtered[@]}" --no-file-parallelism --project e2e "$@"
