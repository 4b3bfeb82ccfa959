"""VSAM for the CICS models: a KSDS on 3390 geometry, LRU buffer pools (LSR,
SMSVSAM local buffers, CF cache, control-unit cache), the volume's I/O timing
and the documented per-operation costs (:mod:`models.vsam.costs`)."""
from models.vsam.buffers import BufferPool
from models.vsam.dasd import Volume
from models.vsam.ksds import KSDS

__all__ = ["BufferPool", "KSDS", "Volume"]
