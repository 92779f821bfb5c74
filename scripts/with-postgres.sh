#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster of its own: initdb in a temp dir, a free
# port on 127.0.0.1, stopped and removed afterwards. Exits 0 without running when no PostgreSQL
# binaries are installed (prints why).
set -euo pipefail
bindir=""
for candidate in "${PG_BINDIR:-}" $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
  if [ -n "$candidate" ] && [ -x "$candidate/initdb" ]; then bindir=$candidate; break; fi
done
if [ -z "$bindir" ]; then
  echo "[postgres] no PostgreSQL server binaries found; skipping the PostgreSQL run"
  exit 0
fi
dir=$(mktemp -d /tmp/praksis-pg-XXXXXX)
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
owner=""
if [ "$(id -u)" = "0" ]; then
  # PostgreSQL refuses to run as root; the cluster belongs to an unprivileged user.
  owner=nobody
  chown "$owner" "$dir"
fi
run() { if [ -n "$owner" ]; then su -s /bin/bash "$owner" -c "$*"; else bash -c "$*"; fi; }
cleanup() { run "'$bindir/pg_ctl' -D '$dir/data' -m immediate stop" >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap cleanup EXIT
run "'$bindir/initdb' -D '$dir/data' -U praksis --auth=trust -E UTF8 --locale=C.UTF-8" >/dev/null
run "'$bindir/pg_ctl' -D '$dir/data' -o \"-p $port -k '$dir' -c listen_addresses=127.0.0.1 -c fsync=off\" -l '$dir/log' -w start" >/dev/null
echo "[postgres] throwaway cluster on 127.0.0.1:$port ($bindir)"
export TEST_DATABASE_URL="postgres://praksis@127.0.0.1:$port/postgres"
"$@"
