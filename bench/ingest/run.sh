#!/usr/bin/env bash
# Ingest benchmark: the Houston/Galveston day into SQLite and PostgreSQL, Bosun versus a raw
# multi-row insert of the same rows, in one run.
# Usage: bench/ingest/run.sh [--store sqlite|postgres|both] [--rows N]   (from the project root)
# PostgreSQL: BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/test).
exec "$(dirname "${BASH_SOURCE[0]}")/../run-bench.sh" ingest/ingest-main.js "$@"
