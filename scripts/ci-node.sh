#!/usr/bin/env bash
# Installs from scratch and tests on one Node line, taken from the npm registry's `node` package
# (the binary ships inside it; nothing else is downloaded). The install must compile nothing and
# print no warning (kfbench has no native add-on to build: SQLite is node:sqlite).
# Usage: bash scripts/ci-node.sh 24.21.0 [test files…]
# In a copy of the committed tree: a clean install, the build, then the CLI end-to-end subset (or
# the files given). `.ci/run` runs `npm ci && npm test` itself on the lowest line.
set -euo pipefail
version="${1:?usage: scripts/ci-node.sh NODE_VERSION [test files…]}"
shift
root="$(cd "$(dirname "$0")/.." && pwd)"
tests=("$@")
if [ ${#tests[@]} -eq 0 ]; then
  # the CLI end to end (ffmpeg, sharp, node:sqlite, onnxruntime, the HTTP judge against the
  # emulator), native modules that cannot load, damaged caches, the scan's worker threads, the
  # evaluation cache, and the Quickstart: the demo cold and warm with its printed serve line, and
  # the README walkthroughs
  tests=(test/cli/media.test.ts test/cli/stats.test.ts test/cli/embed.test.ts test/cli/judge.test.ts
    test/cli/native.test.ts test/judge/cache-damage.test.ts
    test/cli/compass.test.ts test/embed/onnx.test.ts test/judge/openai.test.ts test/store/jsonl.test.ts
    test/cli/compass-jobs.test.ts test/compass/response/scan-pool.test.ts
    test/compass/quality/eval-cache.test.ts test/cli/demo.test.ts test/readme.test.ts)
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/kfbench-node-${version}-XXXXXX")"
trap 'rm -rf "$work"' EXIT
(cd "$root" && git ls-files -z | xargs -0 cp --parents -t "$work")
cd "$work"
export KFBENCH_CI_TESTS="${tests[*]}"
# npx puts the package's `node` first on PATH; npm then runs on it.
npx -y -p "node@${version}" -c '
  set -eu
  echo "ci-node: $(node --version) from the node package"
  log="$(mktemp)"
  npm ci --no-audit --no-fund >"$log" 2>&1 || { cat "$log"; echo "ci-node: npm ci failed" >&2; exit 1; }
  cat "$log"
  if grep -Eiq "^npm (warn|error)|gyp|prebuild" "$log"; then
    echo "ci-node: npm ci warned or compiled on $(node --version) (see above)" >&2
    exit 1
  fi
  npm run build
  ./node_modules/.bin/vitest run $KFBENCH_CI_TESTS
'
