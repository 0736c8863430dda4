#!/usr/bin/env bash
# HTTP benchmark: ping, preview last position and vessel lookup on `bosun serve` versus a bare
# Fastify handler serving the same bytes, one keep-alive load generator, one run.
# Usage: bench/http/run.sh [--seconds 5] [--connections 16] [--rounds 3]   (from the project root)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
npx --no-install tsc -p tsconfig.json
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
exec node dist/bench/http/http-main.js "$@"
