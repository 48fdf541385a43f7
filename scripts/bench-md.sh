#!/usr/bin/env bash
# IDA* with Manhattan distance on Korf's 15-puzzle instances: npuzzle against a small C
# program (the reference in ../shared/ref/md.c, built with gcc -O3 when it is there),
# side by side in one run.
#
#   scripts/bench-md.sh [INSTANCE ...]     # default: 1 (Korf #1, 276,361,932 nodes)
#
# Environment: ROUNDS (default 3): runs of each program per instance, taken in turn (npuzzle,
# C, npuzzle, C, ...) so that both see the same machine; MD_REF: the C source (default
# ../shared/ref/md.c). Prints each run's generated nodes, CPU and wall seconds, then per
# instance the median rates in million nodes per CPU second and the median over the rounds of
# the speed ratio npuzzle / C (C's CPU seconds over npuzzle's; above 1: npuzzle is faster). CPU seconds (user + sys) are what is compared: on a shared
# machine wall time also measures the neighbours.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-3}
REF=${MD_REF:-../shared/ref/md.c}
INSTANCES=("$@")
[ ${#INSTANCES[@]} -eq 0 ] && INSTANCES=(1)
DATA=data/korf100-15puzzle.txt

cargo build --release -q -p npuzzle-cli
NPUZZLE=target/release/npuzzle
CREF=""
if [ -f "$REF" ] && command -v gcc >/dev/null; then
    CREF=target/md-ref
    gcc -O3 -o "$CREF" "$REF"
else
    echo "note: $REF (or gcc) not found: timing npuzzle alone"
fi

# Runs a command, prints "generated cpu wall" (the command prints its node count).
measure() {
    local out t0 t1 ts
    ts=$(mktemp)
    t0=$(date +%s.%N)
    # bash's `time` gives the child's user and system seconds.
    out=$( { TIMEFORMAT='%U %S'; time "$@" 2>/dev/null; } 2>"$ts" )
    t1=$(date +%s.%N)
    local cpu
    cpu=$(awk '{print $1 + $2}' "$ts")
    rm -f "$ts"
    local nodes
    nodes=$(printf '%s\n' "$out" | grep -o '"generated":[0-9]*\|generated [0-9]*' | head -1 | grep -o '[0-9]*$')
    echo "$nodes $cpu $(echo "$t1 - $t0" | bc)"
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

for i in "${INSTANCES[@]}"; do
    line=$(grep -v '^#' "$DATA" | sed -n "${i}p")
    board=$(echo "$line" | cut -d' ' -f1-16)
    rates_n=() rates_c=() ratios=()
    for _ in $(seq "$ROUNDS"); do
        read -r nodes cpu wall < <(measure "$NPUZZLE" solve "$board" --goal blank-first \
            -a idastar -H manhattan --threads 1 --json)
        echo "#$i npuzzle: $nodes nodes, cpu $cpu s, wall $wall s"
        rates_n+=("$(echo "$nodes / $cpu / 1000000" | bc -l)")
        if [ -n "$CREF" ]; then
            read -r cnodes ccpu cwall < <(measure sh -c "$CREF $i < $DATA")
            echo "#$i C:       $cnodes nodes, cpu $ccpu s, wall $cwall s"
            if [ "$cnodes" != "$nodes" ]; then
                echo "error: node counts differ on #$i ($nodes against $cnodes)" >&2
                exit 1
            fi
            rates_c+=("$(echo "$cnodes / $ccpu / 1000000" | bc -l)")
            ratios+=("$(echo "$ccpu / $cpu" | bc -l)")
        fi
    done
    rn=$(printf '%s\n' "${rates_n[@]}" | median)
    if [ -n "$CREF" ]; then
        rc=$(printf '%s\n' "${rates_c[@]}" | median)
        # The ratio of each round's pair, then their median (robust to a drifting machine).
        printf '#%s: npuzzle %.1f M nodes/s, C %.1f M nodes/s, speed ratio npuzzle/C %.3f (median of %s pairs)\n' \
            "$i" "$rn" "$rc" "$(printf '%s\n' "${ratios[@]}" | median)" "$ROUNDS"
    else
        printf '#%s: npuzzle %.1f M nodes/s\n' "$i" "$rn"
    fi
done
