"""3490 tape drives and 18-track cartridges (case study C).

Public surface: :mod:`models.tape.media` (the recording format: how much tape
a block or a tape mark takes, cartridge capacity) and
:class:`~models.tape.drive.TapeDrive` (timing of buffered and synchronous
writes, read-ahead reads, end of volume and cartridge changes).
"""
from models.tape.media import (BLOCK_32K, CARTRIDGE_INCHES, Cartridge, block_inches,
                               tape_mark_inches)
from models.tape.drive import TapeChannel, TapeDrive

__all__ = ["BLOCK_32K", "CARTRIDGE_INCHES", "Cartridge", "block_inches",
           "tape_mark_inches", "TapeChannel", "TapeDrive"]
