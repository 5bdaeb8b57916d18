#!/usr/bin/env bash
# One command: set up, lint, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .

# The tests' SQLite files, PostgreSQL cluster and browser profiles are throwaway: keep them in memory (tmpfs)
# when there is room. Each SQLite commit waits for the disk otherwise; loading the demo spent 31 of its 45 s in
# fsync on this machine's shared disk, and 0.9 s on /dev/shm (docs/PERFORMANCE.md, "The test suite").
if [ -z "${FUPAN_TEST_TMP:-}" ] && [ -w /dev/shm ] && \
   [ "$(df -Pk /dev/shm | awk 'NR == 2 {print $4}')" -gt 4000000 ]; then
  FUPAN_TEST_TMP="$(mktemp -d /dev/shm/fupan-tests.XXXXXX)"
  trap 'rm -rf "$FUPAN_TEST_TMP"' EXIT
fi
if [ -n "${FUPAN_TEST_TMP:-}" ]; then
  chmod 1777 "$FUPAN_TEST_TMP"   # the PostgreSQL cluster runs as the postgres user when we are root
  export TMPDIR="$FUPAN_TEST_TMP"
fi
.venv/bin/python -m pytest "$@"
