#!/usr/bin/env bash
# Builds the project, prints the machine and its load, then runs one benchmark's entry point.
# Usage: bench/run-bench.sh <entry under dist/bench/, e.g. http/http-main.js> [its options]   (from anywhere)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
entry="$1"
shift
npx --no-install tsc -p tsconfig.json
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
exec node "dist/bench/$entry" "$@"
