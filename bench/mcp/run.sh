#!/usr/bin/env bash
# Tool-call overhead: a direct call vs dispatch vs MCP tools/call, one run, rounds alternated.
# Usage: bench/mcp/run.sh [--calls 400] [--rounds 3]   (from the project root)
exec "$(dirname "${BASH_SOURCE[0]}")/../run-bench.sh" mcp/dispatch-main.js "$@"
