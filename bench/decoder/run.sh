#!/usr/bin/env bash
# Whole-process benchmark: gpsdecode -s -j versus Bosun on the same 1,000,000-sentence file, alternating
# runs: `bosun decode FILE` (bin/bosun, the command users run) and the decoder's own entry point.
# Usage: bench/decoder/run.sh [runs]   (from the project root; builds dist/ first)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
runs="${1:-3}"
sample="$root/../shared/data/ais/volume/ais-nmea-sample.log"
out="$root/bench/out"
file="$out/ais-1m.nmea"
sentences=1000000

if ! command -v gpsdecode >/dev/null; then
  apt-get update && apt-get install -y gpsd-clients
fi
[ -x /usr/bin/time ] || { apt-get update && apt-get install -y time; }
[ -f "$sample" ] || { echo "missing $sample (place ../shared/data beside the project)" >&2; exit 1; }

mkdir -p "$out"
if [ ! -f "$file" ] || [ "$(wc -l < "$file")" -ne "$sentences" ]; then
  # Repeat the sample's sentences (comments dropped) until there are exactly 1,000,000 lines.
  grep -v '^#' "$sample" > "$out/sample.sentences"
  per_copy=$(wc -l < "$out/sample.sentences")
  copies=$(( sentences / per_copy + 1 ))
  for _ in $(seq "$copies"); do cat "$out/sample.sentences"; done | head -n "$sentences" > "$file"
  rm -f "$out/sample.sentences"
fi

npx --no-install tsc -p tsconfig.json

# Prints "seconds peak_rss_kb" for one whole-process run with stdout discarded.
measure() {
  /usr/bin/time -f '%e %M' -o "$out/time.txt" "$@" > /dev/null
  cat "$out/time.txt"
}

echo "file: $file ($sentences sentences), runs: $runs, cores: $(nproc), node $(node --version), $(gpsdecode -V 2>&1 | head -1)"
printf '%-8s %-4s %10s %14s %12s\n' tool run seconds sentences/s peak_rss_kb
best_gpsd=""; best_bosun=""; best_cli=""; rss_gpsd=0; rss_bosun=0; rss_cli=0
for run in $(seq "$runs"); do
  read -r secs rss < <(measure sh -c "gpsdecode -s -j < '$file'")
  printf '%-8s %-4s %10s %14.0f %12s\n' gpsdecode "$run" "$secs" "$(echo "$sentences / $secs" | bc -l)" "$rss"
  if [ -z "$best_gpsd" ] || [ "$(echo "$secs < $best_gpsd" | bc)" = 1 ]; then best_gpsd=$secs; fi
  [ "$rss" -gt "$rss_gpsd" ] && rss_gpsd=$rss
  read -r secs rss < <(measure node dist/bench/decoder/decode-main.js "$file")
  printf '%-8s %-4s %10s %14.0f %12s\n' bosun "$run" "$secs" "$(echo "$sentences / $secs" | bc -l)" "$rss"
  if [ -z "$best_bosun" ] || [ "$(echo "$secs < $best_bosun" | bc)" = 1 ]; then best_bosun=$secs; fi
  [ "$rss" -gt "$rss_bosun" ] && rss_bosun=$rss
  read -r secs rss < <(measure bin/bosun decode "$file")
  printf '%-8s %-4s %10s %14.0f %12s\n' 'bosun decode' "$run" "$secs" "$(echo "$sentences / $secs" | bc -l)" "$rss"
  if [ -z "$best_cli" ] || [ "$(echo "$secs < $best_cli" | bc)" = 1 ]; then best_cli=$secs; fi
  [ "$rss" -gt "$rss_cli" ] && rss_cli=$rss
done
printf 'best gpsdecode: %.0f sentences/s, peak RSS %s KB\n' "$(echo "$sentences / $best_gpsd" | bc -l)" "$rss_gpsd"
printf 'best bosun:     %.0f sentences/s, peak RSS %s KB\n' "$(echo "$sentences / $best_bosun" | bc -l)" "$rss_bosun"
printf 'best bosun decode (CLI): %.0f sentences/s, peak RSS %s KB\n' "$(echo "$sentences / $best_cli" | bc -l)" "$rss_cli"
printf 'ratio bosun/gpsdecode (throughput, best runs): %.2f\n' "$(echo "$best_gpsd / $best_bosun" | bc -l)"
printf 'ratio bosun decode (CLI)/gpsdecode (throughput, best runs): %.2f\n' "$(echo "$best_gpsd / $best_cli" | bc -l)"
