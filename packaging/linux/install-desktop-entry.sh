#!/bin/sh
# Add zPerfLab to the desktop's application menu: the .desktop entry (with
# this folder's zperflab as its command), the icons and the AppStream
# metainfo, for you alone (~/.local/share) or, with --system as root, for
# every user (/usr/local/share). Also links zperflab into ~/.local/bin
# (/usr/local/bin with --system). --uninstall removes what it added.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
id=org.zperflab.zperflab
mode=user
action=install
for arg in "$@"; do
  case "$arg" in
    --system) mode=system ;;
    --uninstall) action=uninstall ;;
    *) echo "usage: $0 [--system] [--uninstall]" >&2; exit 2 ;;
  esac
done
if [ "$mode" = system ]; then
  data=/usr/local/share; bin=/usr/local/bin
else
  data="${XDG_DATA_HOME:-$HOME/.local/share}"; bin="$HOME/.local/bin"
fi
files="applications/$id.desktop metainfo/$id.metainfo.xml icons/hicolor/scalable/apps/$id.svg"
for s in 48 128 256; do files="$files icons/hicolor/${s}x${s}/apps/$id.png"; done

if [ "$action" = uninstall ]; then
  for f in $files; do rm -f "$data/$f"; done
  [ -L "$bin/zperflab" ] && rm -f "$bin/zperflab"
  echo "zPerfLab: removed from the application menu ($data)"
  exit 0
fi
for f in $files; do
  mkdir -p "$(dirname "$data/$f")"
  cp "$here/share/$f" "$data/$f"
done
# The entry runs this folder's program, wherever it was unpacked.
sed -e "s|^Exec=zperflab|Exec=\"$here/zperflab\"|" -e "s|^TryExec=zperflab|TryExec=$here/zperflab|" \
  "$here/share/applications/$id.desktop" > "$data/applications/$id.desktop"
mkdir -p "$bin"
ln -sf "$here/zperflab" "$bin/zperflab"
command -v update-desktop-database >/dev/null && update-desktop-database -q "$data/applications" || true
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$data/icons/hicolor" || true
echo "zPerfLab: added to the application menu ($data/applications/$id.desktop); command: $bin/zperflab"
