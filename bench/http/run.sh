#!/usr/bin/env bash
# HTTP benchmark: ping, preview last position and vessel lookup on `bosun serve` versus a bare
# Fastify handler serving the same bytes, one keep-alive load generator, one run.
# Usage: bench/http/run.sh [--seconds 5] [--connections 16] [--rounds 3]   (from the project root)
exec "$(dirname "${BASH_SOURCE[0]}")/../run-bench.sh" http/http-main.js "$@"
