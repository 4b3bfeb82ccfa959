"""How much the synthetic SYS1.LINKLIB decides the space results.

The bundled library (resources/linklib/README.md) is a log-normal draw:
3,500 members, median 12,000 bytes, sigma(ln size) 1.7, seed 3390. This
redraws it with the median and the spread each moved by -30 %, 0, +30 %
and prints the space ratios the ``library_space`` experiment reports
(tracks at one block size over tracks at another) and the tracks at 32760.

Usage: .venv/bin/python bench/linklib_space.py
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.loadlib import linklib  # noqa: E402
from models.loadlib.layout import library_space  # noqa: E402


def main() -> None:
    print(f"{'median B':>8} {'sigma':>5} {'32760/6144':>10} {'23440/32760':>11} "
          f"{'27998/32760':>11} {'tracks 32760':>12}")
    for mf in (0.7, 1.0, 1.3):
        for sf in (0.7, 1.0, 1.3):
            median, sigma = linklib.MEDIAN_BYTES * mf, linklib.SIGMA * sf
            sizes = [b for _n, b in linklib.generate(median=median, sigma=sigma)]
            t = {b: library_space(sizes, b).tracks for b in (6144, 23440, 27998, 32760)}
            mark = "  <- bundled" if mf == sf == 1.0 else ""
            print(f"{median:8.0f} {sigma:5.2f} {t[32760] / t[6144]:10.3f} "
                  f"{t[23440] / t[32760]:11.3f} {t[27998] / t[32760]:11.3f} "
                  f"{t[32760]:12}{mark}")


if __name__ == "__main__":
    main()
