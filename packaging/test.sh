#!/usr/bin/env bash
# Run the whole zPerfLab test suite headless (sets up .venv first if needed).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
bash packaging/setup.sh
export QT_QPA_PLATFORM=offscreen
exec .venv/bin/python -m pytest -q -p no:cacheprovider tests "$@"
