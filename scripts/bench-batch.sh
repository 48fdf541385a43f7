#!/usr/bin/env bash
# Benchmark of `npuzzle batch` (issue 4's targets):
#   * 10,000 random 3x3 boards with --jobs 2 in under 1 s;
#   * a 2-core speed-up of at least 1.8x over --jobs 1 on a 15-puzzle file.
# Checks the results too: every board solved, and the same lengths and node counts
# whatever the number of threads. Needs hyperfine (Debian: apt-get install hyperfine).
# Run it on a quiet machine: other processes on the two cores skew the speed-up.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q
npuzzle=$PWD/target/release/npuzzle
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$npuzzle" random --size 3x3 --count 10000 --seed 1 > "$work/r3.txt"
"$npuzzle" random --size 4x4 --moves 50 --count 1000 --seed 15 > "$work/w15.txt"

# Results first: all solved (exit 0), identical whatever --jobs (times aside).
for f in r3 w15; do
  for j in 1 2; do
    "$npuzzle" batch "$work/$f.txt" --jobs $j --format csv | cut -d, -f1-12 > "$work/$f.$j.csv"
  done
  cmp "$work/$f.1.csv" "$work/$f.2.csv"
  echo "$f: $(($(wc -l < "$work/$f.1.csv") - 1)) boards solved, same results on 1 and 2 threads"
done

hyperfine --warmup 2 --export-json "$work/r3.json" \
  "$npuzzle batch $work/r3.txt --jobs 2 --format csv"
hyperfine --warmup 1 --runs 5 --export-json "$work/w15.json" \
  "$npuzzle batch $work/w15.txt --jobs 1 --format csv" \
  "$npuzzle batch $work/w15.txt --jobs 2 --format csv"

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
r3 = json.load(open(f"{work}/r3.json"))["results"][0]
w15 = json.load(open(f"{work}/w15.json"))["results"]
one, two = w15[0]["median"], w15[1]["median"]
print(f"10,000 3x3 boards, 2 threads: {r3['median']:.3f} s median (target < 1 s)")
print(f"1,000 4x4 boards: {one:.2f} s on 1 thread, {two:.2f} s on 2: speed-up {one / two:.2f}x (target >= 1.8x)")
ok = r3["median"] < 1.0 and one / two >= 1.8
sys.exit(0 if ok else 1)
PY
