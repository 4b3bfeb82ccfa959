#!/usr/bin/env bash
# Build zPerfLab as a self-contained application folder (PyInstaller), its
# .tar.gz, desktop entry, icons and AppStream metainfo, then check the result
# the way a user gets it: unpacked from the tarball into an empty folder and
# started from an empty environment (no Python, no venv, no checkout).
#
#   bash packaging/build.sh
#
# writes dist/zperflab/ and dist/zperflab-VERSION-linux-ARCH.tar.gz (see
# packaging/README.md). Set ZPERFLAB_DIST / ZPERFLAB_WORK for other output and
# scratch folders, ZPERFLAB_PYTHON to build with a Python that already has
# the 'build' extra (the test suite does), ZPERFLAB_URL for the homepage and
# screenshot addresses in the metainfo.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
start=$(date +%s)
say() { echo "zperflab build: $*"; }
fail() { echo "zperflab build: FAILED: $*" >&2; exit 1; }

PY="${ZPERFLAB_PYTHON:-}"
if [ -z "$PY" ]; then
  bash packaging/setup.sh          # installs the 'build' extra (PyInstaller) too
  PY=.venv/bin/python
fi
"$PY" -c "import PyInstaller" 2>/dev/null || fail "$PY has no PyInstaller: pip install -e '.[build]'"

DIST="$(mkdir -p "${ZPERFLAB_DIST:-dist}" && cd "${ZPERFLAB_DIST:-dist}" && pwd)"
WORK="${ZPERFLAB_WORK:-build/pyinstaller}"
URL="${ZPERFLAB_URL:-https://zperflab.org}"
ID=org.zperflab.zperflab
VERSION="$("$PY" -c 'import app; print(app.__version__)')"
ARCH="$(uname -m)"
BUNDLE="$DIST/zperflab"
TARBALL="$DIST/zperflab-$VERSION-linux-$ARCH.tar.gz"

say "PyInstaller: $BUNDLE"
rm -rf "$BUNDLE" "$TARBALL"
QT_QPA_PLATFORM=offscreen "$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath "$DIST" --workpath "$WORK" packaging/zperflab.spec

say "desktop entry, icons, metainfo"
share="$BUNDLE/share"
mkdir -p "$share/applications" "$share/metainfo" "$share/icons/hicolor/scalable/apps"
cp packaging/linux/$ID.desktop "$share/applications/"
cp resources/icons/zperflab.svg "$share/icons/hicolor/scalable/apps/$ID.svg"
QT_QPA_PLATFORM=offscreen "$PY" packaging/linux/render_icons.py resources/icons/zperflab.svg \
  "$share/icons/hicolor" "$ID" 48 128 256
shots=""
for s in "db2_io_run_1280x800.png:The DB2 list-prefetch case study after a run" \
         "tab-animation-1280x800.png:A run replayed as an animation" \
         "tab-charts-1280x800.png:Charts of a run" \
         "compare_1366x768.png:Two configurations compared side by side"; do
  file="${s%%:*}"; caption="${s#*:}"
  [ -f "docs/screenshots/$file" ] || fail "docs/screenshots/$file is missing"
  kind=""; [ -z "$shots" ] && kind=' type="default"'
  shots="$shots    <screenshot$kind><caption>$caption</caption><image>$URL/screenshots/$file</image></screenshot>
"
done
export SHOTS="$shots"
sed -e "s|@VERSION@|$VERSION|" -e "s|@DATE@|$(date -u +%F)|" -e "s|@URL@|$URL|" \
  packaging/linux/$ID.metainfo.xml \
  | "$PY" -c 'import os, sys; sys.stdout.write(sys.stdin.read().replace("@SCREENSHOTS@\n", os.environ["SHOTS"]))' \
  > "$share/metainfo/$ID.metainfo.xml"
mkdir -p "$share/zperflab/screenshots"
for s in db2_io_run_1280x800 tab-animation-1280x800 tab-charts-1280x800 compare_1366x768; do
  cp "docs/screenshots/$s.png" "$share/zperflab/screenshots/"
done
cp packaging/linux/install-desktop-entry.sh "$BUNDLE/"
if command -v appstreamcli >/dev/null; then
  appstreamcli validate --no-net --explain "$share/metainfo/$ID.metainfo.xml" >/dev/null \
    || { appstreamcli validate --no-net "$share/metainfo/$ID.metainfo.xml"; fail "metainfo"; }
fi
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$share/applications/$ID.desktop" || fail "desktop entry"
fi

say "tarball: $TARBALL"
tar -C "$DIST" -czf "$TARBALL" zperflab

# ---- check the result as a user gets it ------------------------------------------
check="$(mktemp -d)"
trap 'rm -rf "$check"' EXIT
mkdir "$check/unpacked" "$check/empty"
tar -C "$check/unpacked" -xzf "$TARBALL"
app="$check/unpacked/zperflab/zperflab"
cd "$check/empty"
for dir in "$here"/resources/*/; do
  name="$(basename "$dir")"
  [ "$name" = __pycache__ ] && continue
  [ -d "$check/unpacked/zperflab/_internal/resources/$name" ] \
    || [ -z "$(find "$dir" -type f)" ] || fail "resources/$name is not in the bundle"
done
version="$(env -i "$app" --version)" || fail "zperflab --version"
echo "$version" | sed 's/^/    /'
[ "$(echo "$version" | head -1)" = "zPerfLab $VERSION" ] || fail "--version does not say $VERSION"
echo "$version" | grep -q "^Installed in: $check/unpacked/zperflab/" \
  || fail "the bundle does not use its own data"
# (HOME: a scratch folder, so the run's history is not written to /.local.)
env -i HOME="$check/home" QT_QPA_PLATFORM=offscreen "$app" gui --open db2_io --run \
  --screenshot "$check/shot.png" \
  || fail "gui --open db2_io --run --screenshot from an empty environment"
[ "$(head -c 8 "$check/shot.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] \
  || fail "the screenshot is not a PNG"
# Text renders with the bundle's fonts alone: a window drawn with them differs
# from one drawn with no fonts at all (every letter an empty box).
fonts="$check/unpacked/zperflab/_internal/fonts"
printf '<?xml version="1.0"?>\n<fontconfig><dir>%s</dir></fontconfig>\n' "$fonts" > "$check/only.conf"
printf '<?xml version="1.0"?>\n<fontconfig></fontconfig>\n' > "$check/none.conf"
for f in only none; do
  env -i HOME="$check/home" QT_QPA_PLATFORM=offscreen FONTCONFIG_FILE="$check/$f.conf" "$app" gui --open db2_io \
    --screenshot "$check/$f.png" --size 640x400 2>/dev/null || fail "gui with $f.conf"
done
cmp -s "$check/only.png" "$check/none.png" && fail "no text without the system's fonts"
cd "$here"

size="$(du -sh "$BUNDLE" | cut -f1)"
tsize="$(du -sh "$TARBALL" | cut -f1)"
say "OK in $(( $(date +%s) - start )) s: $BUNDLE ($size), $TARBALL ($tsize)"
