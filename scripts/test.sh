#!/usr/bin/env bash
# `npm test`: every check CI runs. The machine has 2 cores and most steps fill both, so they run one
# after another; the type check (one core) and the CSS lint overlap the build and the fault tests
# (which mostly wait on restarts). Each step's time is printed at the end (and kept in
# test-results/reports/steps.tsv).
set -euo pipefail
cd "$(dirname "$0")/.."
began=$(date +%s)
reports=test-results/reports
rm -rf "$reports" && mkdir -p "$reports"
steps="$reports/steps.tsv"
: >"$steps"

# Debian's Chromium drives the end-to-end tests, and libfaketime moves the clock of the unit tests (below);
# install what is missing, or say the one command.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v faketime >/dev/null || missing+=(faketime)
# Debian's PostgreSQL, for the start-up checks against the server an institution runs (app/services/platform/db/debian-postgres.server.test.ts).
compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || missing+=(postgresql)
# Debian's nginx, the TLS-ending proxy of the proxy tests (scripts/ops/proxy.mjs).
[ -x /usr/sbin/nginx ] || missing+=(nginx)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "== installing Debian's ${missing[*]} for the tests"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "The tests need ${missing[*]} from Debian. Install with: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

# timed NAME COMMAND…: runs a command and records its time under NAME, passing on its status.
timed() {
  local name=$1 start status=0
  shift
  start=$(date +%s)
  "$@" || status=$?
  printf '%s\t%s\n' "$name" "$(( $(date +%s) - start ))" >>"$steps"
  return $status
}

# step NAME COMMAND…: a step in the foreground (its failure ends the run).
step() {
  echo "== $1"
  timed "$@"
}

# Steps run side by side: each writes to its own log, shown when all have ended; the first failure
# fails the run after the others' logs are shown.
parallel() {
  local pids=() names=() logs=() failed=0 i
  while [ $# -gt 0 ]; do
    local name=$1 fn=$2
    shift 2
    local log="$reports/${name// /-}.log"
    timed "$name" "$fn" >"$log" 2>&1 &
    pids+=($!) names+=("$name") logs+=("$log")
  done
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then echo "== ${names[$i]}: passed"; else echo "== ${names[$i]}: FAILED"; failed=1; fi
    cat "${logs[$i]}"
  done
  return $failed
}

# The type check, and beside it ESLint (it reads the same types: the route types come first). A
# warning fails as an error does.
types() {
  npx react-router typegen || return 1
  npx tsc &
  local tsc=$! status=0
  npx eslint --max-warnings 0 . || status=1
  wait $tsc || status=1
  return $status
}
# The CSS lint (seconds), then Prettier's check of every file's layout: in the lane that is free
# first, so the type check and ESLint are not kept waiting for it.
css() {
  npx stylelint "app/**/*.css" || return 1
  npx prettier --check --log-level warn . || { echo "Prettier would change the files above: npm run format" >&2; return 1; }
}
build() {
  # The production build with its service worker, shared by the checks below, the fault tests and e2e;
  # it prints no warning (rolldown's [CODE] warnings, React Router's future flags, Vite's deprecations).
  # Then no page's first load over budget, and nothing in the built CSS that the grade-X browsers lack.
  npm run build 2>&1 | tee "$reports/build-output.log" || return 1
  if grep -nE '\[[A-Z]+(_[A-Z]+)+\]|Future Flag Warning|is deprecated|\(!\)|npm warn' "$reports/build-output.log"; then
    echo "The build printed the warnings above; a build has none." >&2
    return 1
  fi
  node scripts/check-weight.mjs && node scripts/check-built-css.mjs
}

# The fault tests beside the server's edges (security headers on every kind of answer, the log of bad
# requests and of a real 5xx), /metrics (both app processes in one scrape; off unless configured) and
# the service (SIGTERM to npm start drains and stops everything; as root, unprivileged app processes):
# side by side (as the fault tests' suites are), each with servers of its own. Beside them the backup
# and the move to another PostgreSQL (scripts/ops/move.test.mjs: npm run backup while the app saves,
# npm run restore into Debian's PostgreSQL, the app started on it, every acknowledged save there; on
# the way, the nightly backup as server.mjs's primary schedules it). The longest two files first, so
# they start together.
faults() { node --test --test-concurrency=2 --test-reporter=spec scripts/ops/faults.test.mjs scripts/ops/move.test.mjs scripts/ops/edges.test.mjs scripts/ops/metrics.test.mjs scripts/ops/proxy.test.mjs scripts/ops/service.test.mjs; }

build_then_faults() {
  timed "production build, page weight and built CSS" build &&
    timed "faults and two instances against the production build (SIGKILL of the app and of its PostgreSQL mid-autosave, PostgreSQL restart), and the server's edges (headers, log)" faults
}

# The type check needs neither the build nor a database: it runs from the start, beside the build and
# the fault tests, and on beside the unit tests when it ends last (its last part is ESLint alone, on
# one core: the unit tests take the other). Its log is shown, and its status counted, before e2e.
types_log="$reports/types-and-lint.log"
timed "types and lint" types >"$types_log" 2>&1 &
types_pid=$!
parallel "CSS against the grade-X browsers, and every file's layout" css "the build, then the fault tests, together" build_then_faults ||
  { wait "$types_pid" || true; cat "$types_log"; exit 1; }

# The end-to-end servers (each a new embedded PostgreSQL with the demo, its mail and OpenID peers;
# one behind nginx) take some 12 s to start, most of it waiting on PostgreSQL: they start now, beside
# the unit tests, and Playwright finds them up (E2E_SERVERS=started: playwright.config.ts reuses them).
# Stopped when the run ends, however it ends.
e2e_port=${E2E_PORT:-3100}
e2e_pids=()
stop_e2e_servers() {
  [ ${#e2e_pids[@]} -gt 0 ] || return 0
  kill -TERM "${e2e_pids[@]}" 2>/dev/null || true
  wait "${e2e_pids[@]}" 2>/dev/null || true
  e2e_pids=()
}
trap 'stop_e2e_servers; kill "$types_pid" 2>/dev/null || true' EXIT
for server in "serve.mjs $e2e_port" "serve.mjs $((e2e_port + 100))" "serve-proxied.mjs $((e2e_port + 50))"; do
  # shellcheck disable=SC2086 # the script's name and its port
  node e2e/support/$server >"$reports/e2e-server-${server##* }.log" 2>&1 &
  e2e_pids+=($!)
done

# Every test that opens a database gets one of its own on a throwaway PostgreSQL (the npm-shipped
# binaries; app/test/postgres.global.ts), copied from a template migrated once.
# They run on another day than today, so a test that names today's semester or date fails now, not when
# the semester turns: the last day of the next semester (30 June or 31 December), with the whole run's
# clock (Node, its workers, PostgreSQL) moved there by libfaketime. The end-to-end tests run today.
if [ "$(date +%-m)" -ge 7 ]; then moved="$(( $(date +%Y) + 1 ))-06-30 10:00:00"; else moved="$(date +%Y)-12-31 10:00:00"; fi
step "unit, loader and action tests on a throwaway PostgreSQL, on $moved" \
  env FAKETIME_DONT_RESET=1 faketime "$moved" \
  npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest.json"

if wait "$types_pid"; then echo "== types and lint: passed"; else types_failed=1; echo "== types and lint: FAILED"; fi
cat "$types_log"
[ -z "${types_failed:-}" ] || exit 1

# The servers started above: each answers /healthz before Playwright begins (else it would start its own).
e2e_ready() {
  node scripts/wait-for-urls.mjs "http://127.0.0.1:$e2e_port/healthz" "http://127.0.0.1:$((e2e_port + 100))/healthz" \
    "https://localhost:$((e2e_port + 50))/healthz" ||
    { echo "An end-to-end server did not start; their logs: $reports/e2e-server-*.log" >&2; return 1; }
}
e2e_ready
step "end-to-end (JavaScript on and off) against the production build" \
  env E2E_SERVERS=started PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" npx playwright test --reporter=list,json
stop_e2e_servers

echo "== time per step (seconds)"
awk -F'\t' '{ printf "   %5d  %s\n", $2, $1 }' "$steps"
echo "== finished in $(( $(date +%s) - began )) s"
node scripts/summarise-tests.mjs "$reports"/*.json
