#!/usr/bin/env bash
# `npm test`: every check CI runs, in order of speed.
set -euo pipefail
cd "$(dirname "$0")/.."
began=$(date +%s)
reports=test-results/reports
rm -rf "$reports" && mkdir -p "$reports"

echo "== types"
npx react-router typegen
npx tsc

echo "== CSS against the grade-X browsers"
npx stylelint "app/**/*.css"

echo "== unit, loader and action tests on PGlite"
npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest-pglite.json"

echo "== database tests again on a throwaway PostgreSQL cluster"
bash scripts/with-postgres.sh npx vitest run app/services app/routes app/test \
  --reporter=default --reporter=json --outputFile.json="$reports/vitest-postgres.json"

echo "== production build (and its service worker)"
npm run build

echo "== page weight (first load, gzipped JS+CSS per page) and the built CSS against the grade-X browsers"
node scripts/check-weight.mjs
node scripts/check-built-css.mjs

echo "== faults and two instances against the production build (SIGKILL mid-autosave, PostgreSQL restart)"
node --test --test-reporter=spec scripts/ops/faults.test.mjs

echo "== end-to-end (JavaScript on and off) against the production build"
PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" npx playwright test --reporter=list,json

echo "== finished in $(( $(date +%s) - began )) s"
node scripts/summarise-tests.mjs "$reports"/*.json
