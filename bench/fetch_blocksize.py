"""Program fetch of a big PDS module at each block size: the curve and why.

For ARCCTL (about 4 MB, PDS, HDD15K, 1,000 LOADs) at BLKSIZE 4096 … 32760
this prints what the binder wrote (tracks, text blocks, text blocks per
track, how many tracks open with a text block whose control record ended
the previous track) and what a LOAD costs (EXCPs, elapsed, CPU, ratio to
32760). It then asks how far apart half-track and 32760 *could* be: it
fits elapsed = F x tracks + b x text blocks to the model's own 6144 and
32760 points and to both ends of the published A3 band (32760/6144 elapsed
0.45-0.65), and prints the 23440/32760 ratio each fit implies.

Usage: .venv/bin/python bench/fetch_blocksize.py
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from models.experiments import run_experiment  # noqa: E402
from models.loadlib.runs import MODULE_BYTES  # noqa: E402
from models.loadlib.layout import TEXT, TrackWriter, write_module  # noqa: E402

SIZES = (4096, 6144, 8192, 16384, 23440, 27998, 32760)


def layout(blksize: int) -> dict:
    """What the binder writes for ARCCTL at ``blksize``."""
    m = write_module(TrackWriter(0), MODULE_BYTES["ARCCTL"], blksize)
    groups = m.by_track()
    opens = sum(1 for g in groups if g[0].kind == TEXT)
    return {"tracks": len(groups), "texts": m.text_blocks,
            "per_track": m.text_blocks / len(groups), "open_with_text": opens,
            "interlocked": sum(sum(1 for r in g[1:] if r.kind == TEXT) for g in groups)}


def main() -> None:
    rows = {}
    print(f"{'BLKSIZE':>7} {'tracks':>6} {'texts':>5} {'per trk':>7} {'open w/ text':>12} "
          f"{'interlocked':>11} {'EXCP/LOAD':>9} {'ms/LOAD':>8} {'CPU us/LOAD':>11} {'vs 32760':>8}")
    for b in SIZES:
        m = run_experiment("program_fetch", {"library": "PDS", "blksize": b,
                                             "module": "ARCCTL", "iterations": 1000}).metrics
        rows[b] = (layout(b), m)
    ref = rows[32760][1]["elapsed_s"]
    for b, (lay, m) in rows.items():
        print(f"{b:7} {lay['tracks']:6} {lay['texts']:5} {lay['per_track']:7.1f} "
              f"{lay['open_with_text']:12} {lay['interlocked']:11} {m['excps'] / 1000:9.0f} "
              f"{m['elapsed_s']:8.1f} {m['cpu_s'] * 1000:11.0f} {m['elapsed_s'] / ref:8.2f}")

    # elapsed = F*tracks + b*texts: how far can 23440 sit from 32760?
    def implied(ratio_6144: float) -> float:
        t6, n6 = rows[6144][0]["tracks"], rows[6144][0]["texts"]
        t3, n3 = rows[32760][0]["tracks"], rows[32760][0]["texts"]
        t2, n2 = rows[23440][0]["tracks"], rows[23440][0]["texts"]
        # (t6 + k n6) = ratio (t3 + k n3), k = b/F
        k = (ratio_6144 * t3 - t6) / (n6 - ratio_6144 * n3)
        return (t2 + k * n2) / (t3 + k * n3), k

    model = rows[6144][1]["elapsed_s"] / ref
    print("\nA per-track plus per-text-block cost, fitted to 6144 vs 32760:")
    for label, r in (("model", model), ("A3 band 0.65 (6144 = 1.54x)", 1 / 0.65),
                     ("A3 band 0.45 (6144 = 2.22x)", 1 / 0.45)):
        ratio, k = implied(r)
        print(f"  {label:30} per-block/per-track cost {k:5.3f} -> 23440/32760 = {ratio:4.2f}")


if __name__ == "__main__":
    main()
