#!/usr/bin/env bash
# The 24-puzzle benchmark of docs/performance.md ("The 24-puzzle optimally"): Korf & Felner's
# ten easiest instances (#38, #40, #25, #32, #44, #37, #30, #13, #1, #28, the fewest published
# nodes) solved with `npuzzle bench … --optimal --threads 2`, every length checked against the
# published one. Prints each run's seconds of search and nodes.
#
#   scripts/bench-24.sh [RUNS] [BEFORE]
#
# RUNS (default 1) runs in all. With BEFORE, a commit (e.g. 0bb8061, the build issue 22 was
# filed on), that commit is built in its own worktree, target and table directory, and runs
# its own command (`-a idastar -H pdb:6-6-6-6`, Korf & Felner's search, before `--optimal`
# existed) in turn with this tree's, RUNS pairs; each pair's ratio and their median follow.
# The machine's speed drifts, so only ratios of runs made in turn are worth comparing.
# Tables are built on first use (about 10 s for 6-6-6-6); NPUZZLE_PDB_DIR is honoured.
set -euo pipefail

runs=${1:-1}
before=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-24.XXXXXX")
trap 'rm -rf "$work"' EXIT

for i in 38 40 25 32 44 37 30 13 1 28; do
    sed -n "${i}p" "$root/data/korf50-24puzzle.txt"
done > "$work/easy10.txt"

cargo build --quiet --release --manifest-path "$root/Cargo.toml" -p npuzzle-cli
ours=("$root/target/release/npuzzle" bench "$work/easy10.txt" --size 5x5 --goal blank-first
    --optimal --threads 2)

if [[ -n $before ]]; then
    tree="${TMPDIR:-/tmp}/npuzzle-bench-24-$before"
    if [[ ! -d $tree ]]; then
        git -C "$root" worktree add --quiet --detach --force "$tree" "$before"
    fi
    echo "building $before in $tree (its own target directory) ..." >&2
    CARGO_TARGET_DIR="$tree-target" cargo build --quiet --release \
        --manifest-path "$tree/Cargo.toml" -p npuzzle-cli
    theirs=(env NPUZZLE_PDB_DIR="$tree-pdb" "$tree-target/release/npuzzle" bench
        "$work/easy10.txt" --size 5x5 --goal blank-first -a idastar -H pdb:6-6-6-6 --threads 2)
fi

# Seconds of search and nodes from bench's "Total:" line; the whole output if it failed.
search() {
    local out
    if ! out=$("$@" 2>&1); then
        echo "$out" >&2
        echo "bench failed: $*" >&2
        exit 1
    fi
    sed -n 's/^Total: \([0-9]*\) nodes.*search \([0-9.]*\) s.*/\2 \1/p' <<<"$out"
}

ratios=()
for ((r = 1; r <= runs; r++)); do
    line=$(search "${ours[@]}")
    read -r ours_s ours_n <<<"$line"
    if [[ -z $before ]]; then
        printf 'run %d: %s s of search, %s nodes (load %s)\n' "$r" "$ours_s" "$ours_n" \
            "$(cut -d' ' -f1 /proc/loadavg)"
        continue
    fi
    line=$(search "${theirs[@]}")
    read -r theirs_s theirs_n <<<"$line"
    ratio=$(awk -v a="$theirs_s" -v b="$ours_s" 'BEGIN { printf "%.2f", a / b }')
    ratios+=("$ratio")
    printf 'pair %d: %s s (%s nodes) against %s s at %s (%s nodes): %s times faster (load %s)\n' \
        "$r" "$ours_s" "$ours_n" "$theirs_s" "$before" "$theirs_n" "$ratio" \
        "$(cut -d' ' -f1 /proc/loadavg)"
done
if ((${#ratios[@]} > 0)); then
    printf '%s\n' "${ratios[@]}" | sort -g | awk '{ v[NR] = $1 }
        END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
              printf "median: %.2f times faster over %d pair%s\n", m, NR, (NR > 1 ? "s" : "") }'
fi
