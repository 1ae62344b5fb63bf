#!/usr/bin/env bash
# Step 1: speky-ts at the action's own commit ($GITHUB_ACTION_PATH, the action's checkout):
# its dependencies from the lockfile, no package's install script, then its build. A checkout
# already built (the same action used twice in a job) is used as it is.
set -euo pipefail
cd "$GITHUB_ACTION_PATH"
if [ ! -f dist/entry/speky.js ]; then
  npm ci --ignore-scripts --no-audit --no-fund
  npm run build
fi
node bin/speky.js --version
