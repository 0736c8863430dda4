#!/usr/bin/env bash
# Tool-call overhead: a direct call vs dispatch vs MCP tools/call, one run, rounds alternated.
# Usage: bench/mcp/run.sh [--calls 400] [--rounds 3]   (from the project root)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
npx --no-install tsc -p tsconfig.json
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
exec node dist/bench/mcp/dispatch-main.js "$@"
