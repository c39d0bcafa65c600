#!/usr/bin/env bash
# Installs Deno, Bun and miniflare (workerd) from npm into .ci/.runtimes, then proves the built
# @fflkit/sdk and the web build of @fflkit/webhooks on each against a local sandbox
# (check-runtimes.mjs), and runs the Workers receiver example's tests on workerd. CI's runtime
# step; run it alone after `pnpm build`, with Node 22 or later (miniflare 4 needs it):
#   PATH="$PWD/.ci/.node24/bin:$PATH" bash scripts/runtimes/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

# Exact versions: the installed copy is kept while they stay the same.
runtimes="deno@2.9.6 bun@1.4.5 miniflare@4.20260730.0"
dir=".ci/.runtimes"
started=$SECONDS

if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
  echo "miniflare 4 needs Node 22 or later, and this is node $(node --version):" \
    "run PATH=\"\$PWD/.ci/.node24/bin:\$PATH\" bash scripts/runtimes/run.sh (.ci/run installs Node 24 there)." >&2
  exit 1
fi

if [ "$(cat "$dir/versions" 2>/dev/null)" != "$runtimes" ]; then
  echo "Installing $runtimes into $dir"
  rm -rf "$dir"
  mkdir -p "$dir"
  # Not workspace dependencies: their binaries are large, and pnpm blocks their install scripts.
  # Of those scripts, deno's and bun's are needed (each puts its platform package's binary where
  # its bin entry points); workerd's only checks its binary, and sharp's builds what miniflare's
  # image bindings alone use.
  npm install --prefix "$dir" --no-save --no-audit --no-fund --ignore-scripts --loglevel=error $runtimes
  (cd "$dir/node_modules/deno" && node install.cjs)
  (cd "$dir/node_modules/bun" && node install.js)
  echo "$runtimes" >"$dir/versions"
fi
installed=$SECONDS

node scripts/runtimes/check-runtimes.mjs
pnpm --filter @example/workers-receiver test:workerd
echo "Runtimes: $((SECONDS - started)) s, of which $((installed - started)) s installing."
