#!/usr/bin/env bash
# The live map with 10,000 vessels in Debian's Chromium: server build of the vessel layer, setData
# update cost and frame time during a pan, against 0 vessels in the same run.
# Usage: bench/web/run.sh [--vessels 10000] [--rounds 5]   (from the project root)
exec "$(dirname "${BASH_SOURCE[0]}")/../run-bench.sh" web/map-main.js "$@"
