#!/usr/bin/env bash
# A real run of `npuzzle play` in a terminal (tmux): plays a 3x3 board to "solved" with the
# arrow keys, then again with the mouse-free "solve" key (Enter), reading the screen with
# capture-pane; then (issue 24) keys on the "terminal too small" screen move nothing, a
# 10x10 solution is sped up and skipped to its end, and a spiral goal is shown.
# Installs tmux where it is missing (Debian). Usage: bash scripts/play-tmux.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v tmux >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq tmux >/dev/null
fi
# NPUZZLE_BIN runs another build (an older one, to see a check fail there).
if [ -z "${NPUZZLE_BIN:-}" ]; then
  cargo build --locked --release -q -p npuzzle-cli
fi
npuzzle=${NPUZZLE_BIN:-$PWD/target/release/npuzzle}
# A private server, so the run neither sees nor disturbs anyone else's tmux.
socket="npuzzle-play-$$"
tm() { tmux -L "$socket" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null || true' EXIT
# A session that outlives the others: killing the last session makes the server exit, and
# a new session started at that moment failed with "server exited unexpectedly" (in CI).
tm new-session -d -s keep "sleep 3600"

board="8 1 3/4 0 2/7 6 5"
screen() { tm capture-pane -p -t play; }
# Waits up to 10 s (or $2 tenths of a second) for the screen to show a pattern.
wait_for() {
  for _ in $(seq "${2:-100}"); do
    if screen | grep -q -- "$1"; then return 0; fi
    sleep 0.1
  done
  echo "play-tmux: the screen never showed '$1':" >&2
  screen >&2
  exit 1
}

start() {
  tm new-session -d -s play -x 80 -y 24 "TERM=xterm-256color $npuzzle play '$board' ${1:-}; sleep 30"
  wait_for "${2:-Moves: 0}"
}

# 1. By hand: the optimal moves of the blank, each sent as the arrow key that slides the
#    tile the other way (blank right = the tile on its right slides left = Left).
moves=$("$npuzzle" solve "$board" --json | sed -E 's/.*"moves":"([UDLR]*)".*/\1/')
[ -n "$moves" ] || { echo "play-tmux: no solution to play" >&2; exit 1; }
start
for ((i = 0; i < ${#moves}; i++)); do
  case "${moves:i:1}" in
    U) key=Down ;; D) key=Up ;; L) key=Right ;; R) key=Left ;;
  esac
  tm send-keys -t play "$key"
  sleep 0.05
done
wait_for "Solved in ${#moves} moves"
wait_for "SOLVED"
echo "play-tmux: solved by hand in ${#moves} moves"
# u takes the last move back; q leaves and the terminal is given back (no alternate screen).
tm send-keys -t play u
wait_for "Moves: $((${#moves} - 1))"
tm send-keys -t play q
for _ in $(seq 50); do
  if ! screen | grep -q "npuzzle play"; then break; fi
  sleep 0.1
done
if screen | grep -q "npuzzle play"; then
  echo "play-tmux: q did not leave the game" >&2
  exit 1
fi
tm kill-session -t play

# 2. By the computer: Enter searches, then the solution plays itself to the goal.
start
tm send-keys -t play Enter
wait_for "Solved in ${#moves} moves"
echo "play-tmux: solved by the solve key in ${#moves} moves"
tm send-keys -t play q
tm kill-session -t play

# 3. Issue 24, play 1: while the terminal is too small to show the board, keys move nothing.
start
tm resize-window -t play -x 12 -y 5
wait_for "Terminal"
for key in Left Up Right Down n u; do tm send-keys -t play "$key"; sleep 0.05; done
tm resize-window -t play -x 80 -y 24
wait_for "Moves: 0"
if ! screen | grep -q "8.*1.*3"; then
  echo "play-tmux: the board changed while it was hidden:" >&2
  screen >&2
  exit 1
fi
echo "play-tmux: no key moved the hidden board"
tm kill-session -t play

# 4. Issue 24, play 2: a 10x10 solution (over 200 moves, half a minute or more at the first
#    speed) sped up with +, then skipped to its end with e.
board="$("$npuzzle" random --size 10x10 --seed 4)"
start "" "Moves: 0"
tm send-keys -t play Enter
wait_for "Playing the solution" 300
for _ in 1 2 3; do tm send-keys -t play +; done
wait_for "at 60 moves/s"
tm send-keys -t play e
wait_for "SOLVED"
echo "play-tmux: a 10x10 solution sped up and skipped to its end"
tm kill-session -t play

# 5. Issue 24, play 3: a spiral goal is drawn beside the board, and g shows it on its own.
board="1 2 3/8 4 0/7 6 5"
start "--goal spiral"
if ! screen | head -1 | grep -q "goal"; then
  echo "play-tmux: the spiral goal is not shown beside the board:" >&2
  screen >&2
  exit 1
fi
tm resize-window -t play -x 15 -y 10
tm send-keys -t play g
wait_for "goal (g: board)"
echo "play-tmux: the spiral goal is shown"
tm send-keys -t play q
