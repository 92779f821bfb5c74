#!/usr/bin/env bash
# `npm test`: every check CI runs, in order of speed.
set -euo pipefail
cd "$(dirname "$0")/.."
began=$(date +%s)

echo "== types"
npx react-router typegen
npx tsc

echo "== CSS against the grade-X browsers"
npx stylelint "app/**/*.css"

echo "== unit, loader and action tests on PGlite"
npx vitest run

echo "== database tests again on a throwaway PostgreSQL cluster"
bash scripts/with-postgres.sh npx vitest run app/services app/routes

echo "== production build"
npx react-router build

echo "== end-to-end (JavaScript on and off) against the production build"
npx playwright test

echo "== all tests passed in $(( $(date +%s) - began )) s"
