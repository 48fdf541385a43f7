#!/usr/bin/env bash
# End-to-end tests of the web page in headless Chromium. Installs what it needs (Debian's
# chromium, playwright-core from npm), builds the release binary, runs the tests and leaves
# screenshots in e2e/screenshots/. Usage: bash e2e/run.sh [test files in e2e/…] (default: all)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/.."

if [ ! -x /usr/bin/chromium ]; then
  echo "== installing chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi
if ! command -v node >/dev/null; then
  echo "== installing node"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq nodejs npm >/dev/null
fi

echo "== building npuzzle"
cargo build --locked --release -p npuzzle-cli --quiet

echo "== npm ci"
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)

echo "== end-to-end tests"
cd "$here"
if [ $# -eq 0 ]; then
  set -- page.test.mjs issue11.test.mjs issue24.test.mjs anytime.test.mjs issue23.test.mjs fields.test.mjs tab-order.test.mjs
fi
node --test --test-concurrency=1 "$@"
