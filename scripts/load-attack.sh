#!/usr/bin/env bash
# Load mixed with attacks (issue 15's acceptance): 200 clients solving random 8-puzzles for
# 10 s (10 % malformed), beside attackers sending wide heuristics, new pattern-database
# partitions, cross-origin posts, slowloris connections and 1 GB Content-Lengths.
# Targets: the 8-puzzles' p99 under 100 ms, no 5xx, the server's peak memory under 1 GB.
# Usage: scripts/load-attack.sh [CLIENTS] [SECONDS] [ATTACKERS-OF-EACH-KIND] [RATE]
# RATE paces each client at RATE requests a second (0: as fast as answers come). The run
# is done twice on the same server build, without attackers and then with them, so the
# two latencies can be compared side by side.
set -euo pipefail
cd "$(dirname "$0")/.."
clients=${1:-200}
seconds=${2:-10}
attacks=${3:-2}
rate=${4:-0}
cargo build --locked --release -q -p npuzzle-cli
cargo build --locked --release -q -p npuzzle-web --example load
work=$(mktemp -d)
server=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

run() {
  local with=$1
  # A fresh server with a fresh, empty table cache: every pdb partition asked for is new.
  rm -rf "$work/pdb"
  NPUZZLE_PDB_DIR="$work/pdb" ./target/release/npuzzle serve --port 0 > "$work/serve.log" &
  server=$!
  for _ in $(seq 50); do
    grep -q "serving" "$work/serve.log" 2>/dev/null && break
    sleep 0.1
  done
  url=$(grep -o 'http://[0-9.:]*' "$work/serve.log" | head -1)
  echo "== $with attackers of each kind (server pid $server at $url)"
  ./target/release/examples/load --url "$url" --clients "$clients" --seconds "$seconds" \
    --malformed 0.1 --rate "$rate" --attacks "$with" || status=$?
  # Peak and current resident memory of the server (Linux).
  grep -E 'VmHWM|VmRSS' "/proc/$server/status" | tr -s ' \t' ' '
  du -sh "$work/pdb" 2>/dev/null | sed 's/^/table cache: /' || true
  kill "$server"
  wait "$server" 2>/dev/null || true
  server=
}

status=0
run 0
run "$attacks"
exit $status
