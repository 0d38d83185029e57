#!/usr/bin/env bash
# The whole test suite: starts PostgreSQL, Redis and Docker on loopback (installing them if needed),
# builds the web app, runs every test project, and stops what it started.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -d node_modules ] || npm ci
source scripts/services.sh
trap stop_services EXIT

export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
npm run build --silent
npx vitest run "$@"
