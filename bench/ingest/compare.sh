#!/usr/bin/env bash
# Before/after ingest comparison on a shared machine: builds <ref> (default HEAD~1) and <after>
# (default: the working tree as it is now, committed or not) in scratch directories and runs their
# ingest benchmarks alternately, <rounds> times each, so both see the same load. Each run prints its
# own raw floors (same rows, same run).
# Usage: bench/ingest/compare.sh [--ref REF] [--after REF] [--rounds N] [--store sqlite|postgres|both]   (from the project root)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
ref=HEAD~1 after="" rounds=2 store=both
while [ $# -gt 0 ]; do
  case "$1" in
    --ref) ref="$2"; shift 2 ;;
    --after) after="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --store) store="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# The benchmark finds the data at <project>/../shared: give the scratch copy the same neighbour.
ln -s "$(cd "$root/.." && pwd)/shared" "$scratch/shared"
[ -n "$after" ] || after="$(git stash create)"
[ -n "$after" ] || after=HEAD
for side in before after; do
  commit="$ref"; [ "$side" = after ] && commit="$after"
  mkdir -p "$scratch/$side"
  git archive "$commit" | tar -x -C "$scratch/$side"
  ln -s "$root/node_modules" "$scratch/$side/node_modules"
  (cd "$scratch/$side" && npx --no-install tsc -p tsconfig.json)
done
echo "before: $(git rev-parse --short "$ref"), after: $(git rev-parse --short "$after")"
for round in $(seq 1 "$rounds"); do
  for side in before after; do
    dir="$scratch/$side"
    echo "== round $round, $side; load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%H:%M:%SZ)"
    (cd "$dir" && node dist/bench/ingest/ingest-main.js --store "$store")
  done
done
