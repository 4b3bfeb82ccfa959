#!/usr/bin/env bash
# Run zPerfLab's checks headless (sets up .venv first if needed): ruff and
# mypy (settings in pyproject.toml), then the whole test suite, the layer
# contracts and the bundle build among the tests. Any failure exits non-zero;
# when all pass, pytest's summary is the last line.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
bash packaging/setup.sh
export QT_QPA_PLATFORM=offscreen
failed=""
echo "zperflab test: ruff"
.venv/bin/ruff check --quiet app models ui tests bench packaging || failed="$failed ruff"
echo "zperflab test: mypy"
.venv/bin/mypy || failed="$failed mypy"
status=0
# Two workers (pytest-xdist): a test module runs whole on one of them (see
# tests/conftest.py). Arguments after the command come last: -n 0 runs serially.
.venv/bin/python -m pytest -q -p no:cacheprovider -n 2 tests "$@" || status=$?
if [ -n "$failed" ]; then
  echo "zperflab test: FAILED:$failed" >&2
  [ "$status" = 0 ] && status=1
fi
exit "$status"
