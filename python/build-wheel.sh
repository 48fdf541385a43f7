#!/usr/bin/env bash
# Builds the Python package for release into OUTDIR: one manylinux2014 abi3 wheel (CPython
# 3.9 and newer, x86-64 Linux with glibc 2.17 or newer) and the source distribution.
#
#   bash python/build-wheel.sh OUTDIR
#   pip install OUTDIR/npuzzle-*.whl          # no Rust toolchain needed to install it
#
# maturin links with zig (`ziglang` from PyPI) against an old glibc, whatever this machine
# has, so the wheel carries a tag package indexes accept (a plain `maturin build` here gives
# `linux_x86_64`, which no index takes); `auditwheel show` then checks that the tag holds:
# the extension needs nothing outside the manylinux2014 policy. The build tools live in a
# virtualenv of their own (python/target/build-venv unless NPUZZLE_BUILD_VENV names another),
# the Rust build in python/target. Needs cargo and python3 (3.9 or newer).
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: bash python/build-wheel.sh OUTDIR" >&2
    exit 2
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$1"
out="$(cd "$1" && pwd)"
venv="${NPUZZLE_BUILD_VENV:-$here/target/build-venv}"
python="${PYTHON:-python3}"

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check --quiet)
"${pip[@]}" install 'maturin>=1.7,<2' ziglang auditwheel
export PATH="$venv/bin:$PATH"

# Only this build's files are checked and reported, not what OUTDIR held before.
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

maturin build --release --locked --zig --compatibility manylinux2014 \
    --manifest-path "$here/Cargo.toml" --interpreter "$venv/bin/python" --out "$stage"
maturin sdist --manifest-path "$here/Cargo.toml" --out "$stage"

wheels=("$stage"/*.whl)
if [ ${#wheels[@]} -ne 1 ] || [ ! -f "${wheels[0]}" ]; then
    echo "error: expected one wheel, found: ${wheels[*]}" >&2
    exit 1
fi
wheel="${wheels[0]}"
case "$(basename "$wheel")" in
    *-abi3-*manylinux2014_x86_64*.whl | *-abi3-*manylinux_2_17_x86_64*.whl) ;;
    *)
        echo "error: $(basename "$wheel") is not a manylinux2014 abi3 wheel" >&2
        exit 1
        ;;
esac
report="$(auditwheel show "$wheel")"
echo "$report"
if ! grep -q 'manylinux_2_17_x86_64' <<<"$report"; then
    echo "error: auditwheel does not find $(basename "$wheel") consistent with manylinux2014" >&2
    exit 1
fi

mv "$stage"/* "$out"/
echo "built into $out:"
ls -1 "$out"
