"""Writes a larger RMF listing (240 volumes) with the layouts of make_samples.py.

Six storage groups over four LCUs (one group spans two of them), the
channels, engines and ranks of the small sample. The figures are invented
but consistent (each volume's reads, hits and stages agree with its rate).
Used to look at an imported drawing of a few hundred volumes; the output
is not kept in the repository:

    python tests/data/rmf/make_large_sample.py /tmp/sysa-large.txt
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_samples as ms  # noqa: E402

#: storage group, LCU, volumes, I/O per second per volume, read hit ratio, seq share
GROUPS = (("SGDB2", "0006", 60, 180.0, 0.90, 0.18), ("SGDB2", "0007", 40, 150.0, 0.90, 0.18),
          ("SGCICS", "0008", 50, 90.0, 0.95, 0.02), ("SGTSO", "0009", 30, 12.0, 0.96, 0.0),
          ("SGBATCH", "0008", 30, 60.0, 0.80, 0.55), ("SGWORK", "0009", 30, 25.0, 0.85, 0.3))


def build(seed: int = 7) -> None:
    """Replace the small sample's tables with the large one's."""
    rng = random.Random(seed)
    vols, cache, units = [], {}, {}
    n = 0
    for sg, lcu, count, rate, hit, seq in GROUPS:
        for _ in range(count):
            volser = "DB2001" if n == 0 else f"{sg[2:5]}{n + 100:03d}"
            dev = f"{0x9000 + n:04X}"
            r = rate * rng.uniform(0.4, 1.6)
            reads = 0.78 * r
            rs = reads * seq
            rn = reads - rs
            h = min(0.995, hit * rng.uniform(0.97, 1.03))
            hn, hs = rn * h, rs * 0.99
            wn = 0.22 * r * (1 - seq)
            ws = 0.22 * r * seq
            mn = rn - hn
            resp = 0.6 + (1 - h) * 3.0
            vols.append((volser, dev, sg, lcu, r, resp, 0.01, 0.14, resp - 0.41, 0.25,
                         min(99.0, r * 0.45 / 10), "1.8H"))
            cache[volser] = (rn, rs, hn, hs, wn, ws, mn, mn * 1.01, rs / 12 * 1.1)
            units.setdefault(lcu, []).append(volser)
            n += 1
    vols.sort(key=lambda v: (v[3], v[1]))
    # 24 ranks of 15K drives in two extent pools (the small sample has 2)
    ms.RANKS = tuple((f"{k % 2:04d}", f"{k % 4:04d}", f"{k:04X}", 120.0 + k, "55.2K", 8.0,
                      40.0, "96.0K", 15.0, "N", 1, 15, "2400G", "RAID 5") for k in range(24))
    ms.VOLUMES = tuple(vols)
    ms.CACHE = cache
    ms.UNITS = tuple((lcu, next(v[1] for v in vols if v[3] == lcu), tuple(vs))
                     for lcu, vs in sorted(units.items()))


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "sysa-large.txt")
    build()
    text = (ms.device_report() + ms.cache_report() + ms.channel_report() + ms.cpu_report() +
            ms.ess_report())
    out.write_text("\n".join(text) + "\n", encoding="ascii")
    print(f"wrote {out}: {len(ms.VOLUMES)} volumes in {len(GROUPS)} storage groups")


if __name__ == "__main__":
    main()
