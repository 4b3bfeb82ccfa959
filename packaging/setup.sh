#!/usr/bin/env bash
# Set up zPerfLab in ./.venv: system libraries Qt needs (apt-get, as root),
# a virtual environment, the Python packages and the compiled event engine and
# I/O model (a C compiler via apt-get as root, Cython via pip). Safe to run again: it
# skips what is already in place.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"

# Libraries the Qt xcb and offscreen platforms load at run time, plus a font.
QT_SYSTEM_PACKAGES="libegl1 libgl1 libglib2.0-0 libfontconfig1 libdbus-1-3 \
libxkbcommon0 libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 \
libxcb-shape0 libxcb-xinerama0 libxcb-randr0 libxcb-render-util0 libxcb-image0 \
libxcb-xkb1 libx11-xcb1 fonts-dejavu-core python3-venv librsvg2-bin"

missing=""
for p in $QT_SYSTEM_PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "zperflab setup: installing system packages:$missing"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
  else
    echo "zperflab setup: these system packages are missing:$missing" >&2
    echo "zperflab setup: run as root, or: sudo apt-get install$missing" >&2
  fi
fi

PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "zperflab setup: creating .venv with $($PY --version)"
  "$PY" -m venv .venv
fi
stamp=.venv/.zperflab-installed
if [ ! -f "$stamp" ] || [ setup.cfg -nt "$stamp" ]; then
  echo "zperflab setup: installing Python packages (first time takes a minute)"
  .venv/bin/python -m pip install -q --upgrade pip
  # test: pytest, contracts, ruff, mypy; cluster: sweep --dask; build: the bundle;
  # compile: Cython, for the compiled event engine and I/O model below.
  .venv/bin/python -m pip install -q -e ".[test,cluster,build,compile]"
  touch "$stamp"
fi

# The compiled event engine and I/O model: Cython compiles models/engine/core.py
# and the I/O model's hot modules (pure-Python mode, types in the .pxd beside
# each) in place. The .py files stay the source: without a compiler they run
# interpreted, slower, with the same results.
COMPILED_MODULES="models/engine/core models/io/request models/io/paths models/io/channel
  models/io/backend models/io/cache models/io/staging models/io/writes models/io/volume"
module_built() {
  local so
  for so in "$1".*.so; do
    [ -f "$so" ] && [ "$so" -nt "$1.py" ] && [ "$so" -nt "$1.pxd" ] \
      && [ "$so" -nt packaging/build_engine.py ] && return 0
  done
  return 1
}
engine_built() {
  local m
  for m in $COMPILED_MODULES; do
    module_built "$m" || return 1
  done
}
build_engine() {
  local need=""
  command -v cc >/dev/null || need="build-essential"
  .venv/bin/python -c "import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))" \
    || need="$need python3-dev"
  if [ -n "$need" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    echo "zperflab setup: installing the C compiler and Python headers:$need"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
  fi
  .venv/bin/python -c "import Cython" 2>/dev/null || .venv/bin/python -m pip install -q "Cython>=3.0"
  .venv/bin/python packaging/build_engine.py --force
}
if ! engine_built; then
  mkdir -p build
  if build_engine >build/engine-build.log 2>&1 && engine_built; then
    echo "zperflab setup: compiled the event engine and the I/O model"
  else
    echo "zperflab setup: could not compile the event engine and I/O model (see" \
      "build/engine-build.log); they run interpreted: same results, slower" >&2
  fi
fi
