#!/bin/bash
# One-shot CLI commands, two builds on the same store, alternating runs (ratios in one run).
# Usage: bench/cli/one-shot.sh <baseline project dir> <candidate project dir> <DATABASE_URL> [runs]
# Each dir must hold a built dist/ (npm run build). Prints the median wall time per build and command.
set -euo pipefail
baseline=$1 candidate=$2 store=$3 runs=${4:-7}
out=$(mktemp)
for _ in $(seq "$runs"); do
  for build in baseline candidate; do
    dir=$baseline; [ "$build" = candidate ] && dir=$candidate
    for command in "agents list" "harbor tasks list"; do
      start=$(date +%s%N)
      # shellcheck disable=SC2086
      DATABASE_URL=$store LOG_LEVEL=warn node "$dir/dist/src/cli.js" $command >/dev/null
      echo "$build|$command|$(( ($(date +%s%N) - start) / 1000000 ))" >>"$out"
    done
  done
done
python3 - "$out" <<'PY'
import collections, statistics, sys
times = collections.defaultdict(list)
for line in open(sys.argv[1]):
    build, command, ms = line.strip().split('|')
    times[(build, command)].append(int(ms))
for command in sorted({c for _, c in times}):
    base, cand = statistics.median(times[('baseline', command)]), statistics.median(times[('candidate', command)])
    print(f'{command}: baseline {base:.0f} ms, candidate {cand:.0f} ms, ratio {cand / base:.2f}')
PY
rm -f "$out"
