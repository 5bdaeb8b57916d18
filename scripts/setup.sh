#!/usr/bin/env bash
# Creates .venv (Python >= 3.11) with fupan and its test tools installed; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
# The build's warnings (setuptools calls its ext-modules table experimental; an editable install's notes) are
# for packagers, not for whoever runs the demo: a failed build still prints its error.
export PYTHONWARNINGS=ignore
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'
