#!/usr/bin/env bash
# One command: set up, then serve the API and viewer on http://127.0.0.1:8000/ with the demo data
# in an embedded SQLite file (demo.sqlite; delete it to start again).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/fupan serve --demo --db "${FUPAN_DB:-demo.sqlite}" --port "${PORT:-8000}" "$@"
