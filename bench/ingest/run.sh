#!/usr/bin/env bash
# Ingest benchmark: the Houston/Galveston day into SQLite and PostgreSQL, Bosun versus a raw
# multi-row insert of the same rows, in one run.
# Usage: bench/ingest/run.sh [--store sqlite|postgres|both] [--rows N]   (from the project root)
# PostgreSQL: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/test).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
npx --no-install tsc -p tsconfig.json
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
exec node dist/bench/ingest/ingest-main.js "$@"
