#!/usr/bin/env bash
# The Python package's CI: a virtualenv, the test tools from PyPI, the release wheel built
# by build-wheel.sh and installed as a user installs it, then pytest against that wheel.
# Called by .ci/run; runs on its own from any directory too.
#
#   bash python/ci.sh            # the default run
#   NPUZZLE_SLOW=1 bash python/ci.sh   # also the slow tests
#
# The virtualenv is python/.venv (git-ignored) unless NPUZZLE_VENV names another; the
# extension's build cache is python/target. When the workspace has a release build of the
# command line (target/release/npuzzle), the tests also check that messages and JSON
# reports are the command line's.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
venv="${NPUZZLE_VENV:-$here/.venv}"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check --quiet)
"${pip[@]}" install --upgrade pip
"${pip[@]}" install maturin pytest hypothesis numpy pandas 'dask[distributed]' matplotlib \
    nbclient nbformat ipykernel
# The extension's Rust is not a member of the workspace (see python/Cargo.toml), so the
# workspace's fmt and clippy do not see it: check it here to the same standard.
cargo fmt --manifest-path "$here/Cargo.toml" -- --check
PYO3_PYTHON="$venv/bin/python" cargo clippy --locked --manifest-path "$here/Cargo.toml" \
    --release --all-targets -- -D warnings
# The wheel users install (manylinux2014, abi3) and the sdist, built as a release is; the
# tests below run against that wheel, installed as the README shows.
dist="$here/target/dist"
rm -rf "$dist"
NPUZZLE_BUILD_VENV="$venv" bash "$here/build-wheel.sh" "$dist"

# The wheel as a user installs it: a fresh virtualenv and no Rust toolchain on PATH (every
# directory holding cargo, rustc or rustup left out, CARGO_HOME and RUSTUP_HOME unset), and
# no package index (--no-index), so nothing can be compiled or fetched: it installs as it is
# and solves a board.
fresh="$(mktemp -d)"
"$python" -m venv "$fresh/venv"
no_rust_path=""
IFS=: read -r -a path_dirs <<<"$PATH"
for d in "${path_dirs[@]}"; do
    if [ -n "$d" ] && [ ! -e "$d/cargo" ] && [ ! -e "$d/rustc" ] && [ ! -e "$d/rustup" ]; then
        no_rust_path="${no_rust_path:+$no_rust_path:}$d"
    fi
done
env -u CARGO_HOME -u RUSTUP_HOME -u NPUZZLE_PDB_DIR PATH="$no_rust_path" \
    FRESH="$fresh" bash -c '
    set -euo pipefail
    if command -v cargo || command -v rustc || command -v rustup; then
        echo "error: a Rust toolchain is still on PATH" >&2
        exit 1
    fi
    "$FRESH/venv/bin/python" -m pip --disable-pip-version-check --quiet install --no-index "$0"
    cd "$FRESH"
    "$FRESH/venv/bin/python" -c "
import npuzzle
s = npuzzle.solve(\"8 6 7/2 5 4/3 0 1\")
assert s.length == 31 and s.optimal, s
print(\"the wheel installed with no Rust toolchain and solved a 31-move board:\", s.length)
"' "$(echo "$dist"/npuzzle-*.whl)"
rm -rf "$fresh"
"${pip[@]}" install --force-reinstall --no-deps "$dist"/npuzzle-*.whl

if [ -z "${NPUZZLE_CLI:-}" ] && [ -x "$repo/target/release/npuzzle" ]; then
    export NPUZZLE_CLI="$repo/target/release/npuzzle"
fi
# Pattern databases built by the tests (6-6-6-6 for the 24-puzzle: 4 x 64 MB, about 20 s)
# are kept in python/target/pdb (git-ignored) between runs, not in the user's cache.
export NPUZZLE_PDB_DIR="${NPUZZLE_PDB_DIR:-$here/target/pdb}"
mkdir -p "$NPUZZLE_PDB_DIR"
cd "$here/tests"
# `import npuzzle` must find the installed package, not the source folder python/npuzzle
# (which has no compiled extension): run from the tests folder.
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider . "$@"
