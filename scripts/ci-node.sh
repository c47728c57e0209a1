#!/usr/bin/env bash
# One Node line from scratch: that release's binary from the npm registry's `node` package (it
# ships inside the package; nothing else is downloaded), first on PATH; a clean `npm ci` (which
# deletes node_modules, installs the lock file and builds dist/) that must compile nothing and
# print no warning; then the README's test command, `npm test` — the whole suite — or, for a
# quicker look while developing, only the test files given.
# Usage: bash scripts/ci-node.sh 22.15.0 [test files…]
set -euo pipefail
version="${1:?usage: scripts/ci-node.sh NODE_VERSION [test files…]}"
shift
cd "$(dirname "$0")/.."
prefix="$(mktemp -d "${TMPDIR:-/tmp}/kfbench-node-${version}-XXXXXX")"
trap 'rm -rf "$prefix"' EXIT
npm install --prefix "$prefix" --no-audit --no-fund --no-save "node@${version}" >/dev/null
export PATH="$prefix/node_modules/.bin:$PATH"
[ "$(node --version)" = "v${version}" ] || { echo "ci-node: node is $(node --version), not v${version}" >&2; exit 1; }
echo "ci-node: $(node --version) from the node package"
log="$(mktemp)"
npm ci --no-audit --no-fund >"$log" 2>&1 || { cat "$log"; echo "ci-node: npm ci failed" >&2; exit 1; }
cat "$log"
if grep -Eiq "^npm (warn|error)|gyp|prebuild" "$log"; then
  echo "ci-node: npm ci warned or compiled on $(node --version) (see above)" >&2
  exit 1
fi
rm -f "$log"
if [ $# -eq 0 ]; then
  npm test
else
  npm run build
  node scripts/hang-guard.mjs -- ./node_modules/.bin/vitest run "$@"
fi
