"""The 3480/3490 18-track recording format: tape used per block and per mark.

Every constant is set once here, with its source:

* 38,000 bytes per inch across 18 parallel tracks, 3 MB/s data rate: IBM 3480
  announcement figures (the 3490 uses the same 18-track format without IDRC).
* Usable tape per cartridge 157.4 m (a 165 m tape less the 3.28 m leader and
  density-mark section and the 4.3 m after early warning), interblock gap
  2 mm, tape mark 1 mm: vendor 3480 training manual as quoted on IBM-MAIN,
  10 Sep 1992 ("IBG of 2mm, Tape Mark of 1mm").

A block takes its bytes at 38,000 per inch plus one gap; a tape mark takes
1 mm plus its own gap. So a 4 KB block carries 0.11 in of data and 0.08 in
of gap (43% waste), a 32 KB block 0.86 in and the same gap (8%): this is
why SPTAPE's page-sized blocks and per-file marks fill more cartridges.
"""
from __future__ import annotations

from dataclasses import dataclass

MM_PER_INCH = 25.4
#: Recording density of the 18-track format, bytes per inch of tape.
DENSITY_BPI = 38_000.0
#: Drive data rate, bytes per second (3 MB/s class).
DATA_RATE_B_S = 3.0e6
#: Tape speed while streaming, inches per second (follows from the two above).
SPEED_IPS = DATA_RATE_B_S / DENSITY_BPI
#: Usable length of one cartridge, inches.
CARTRIDGE_INCHES = 157.42 * 1000.0 / MM_PER_INCH
#: Interblock gap, inches.
IBG_INCHES = 2.0 / MM_PER_INCH
#: A tape mark, inches (its gap is added separately).
TAPE_MARK_INCHES = 1.0 / MM_PER_INCH
#: SPXTAPE's block size.
BLOCK_32K = 32768


def block_inches(nbytes: int) -> float:
    """Tape one block of ``nbytes`` takes, gap included.

    Parameters
    ----------
    nbytes : int
        Data bytes in the block.

    Returns
    -------
    float
        Inches of tape.
    """
    return nbytes / DENSITY_BPI + IBG_INCHES


def tape_mark_inches() -> float:
    """Tape one tape mark takes, gap included."""
    return TAPE_MARK_INCHES + IBG_INCHES


def pass_time_s(inches: float) -> float:
    """Time the given length of tape takes to pass the head while streaming."""
    return inches / SPEED_IPS


@dataclass
class Cartridge:
    """Space accounting for the cartridge mounted on one drive.

    ``fits(inches)`` says whether another item still fits before end of
    volume; ``use(inches)`` records it.
    """

    number: int
    used_inches: float = 0.0
    blocks: int = 0
    marks: int = 0

    def fits(self, inches: float) -> bool:
        return self.used_inches + inches <= CARTRIDGE_INCHES

    def use(self, inches: float, mark: bool = False) -> None:
        self.used_inches += inches
        if mark:
            self.marks += 1
        else:
            self.blocks += 1
