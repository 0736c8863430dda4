#!/usr/bin/env bash
# The live map with 10,000 vessels in Debian's Chromium: server build of the vessel layer, setData
# update cost and frame time during a pan, against 0 vessels in the same run.
# Usage: bench/web/run.sh [--vessels 10000] [--rounds 5]   (from the project root)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
npx --no-install tsc -p tsconfig.json
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
exec node dist/bench/web/map-main.js "$@"
