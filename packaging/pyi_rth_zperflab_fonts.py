"""PyInstaller runtime hook: fonts and a UTF-8 locale for the bundle.

The bundle carries DejaVu fonts and a fonts.conf (``_internal/fonts``) that
adds them to the system's fonts (when the machine has any) and names them
for the generic families, so text renders the same on a machine without
fonts, and offscreen from an empty environment. A FONTCONFIG_FILE the user
set is left alone.

Started with no locale at all (``env -i``), the program takes C.UTF-8, as
Python itself does (PEP 538), instead of Qt switching with a warning.
"""
import os
import sys

_conf = os.path.join(sys._MEIPASS, "fonts", "fonts.conf")
if os.path.isfile(_conf) and not os.environ.get("FONTCONFIG_FILE"):
    os.environ["FONTCONFIG_FILE"] = _conf
if not any(os.environ.get(k) not in (None, "", "C", "POSIX") for k in ("LC_ALL", "LC_CTYPE", "LANG")):
    os.environ["LC_CTYPE"] = "C.UTF-8"
