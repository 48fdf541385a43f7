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
