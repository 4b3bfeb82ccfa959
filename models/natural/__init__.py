"""Natural sessions on a zIIP: programs as data, profiles, the session model.

* :mod:`models.natural.program`: steps (``ReadAdabas``, ``WriteLines``,
  ``ReadWork``, ``Sort``, ``FetchPrograms``), :class:`Profile`, and
  :func:`program_for` (the built-in program of each operation).
* :mod:`models.natural.session`: :class:`NaturalSession` runs a program on a
  :class:`~models.cpu.ProcessorComplex`.
"""
from models.natural.program import (FetchPrograms, Profile, ReadAdabas, ReadWork, Sort,
                                    WriteLines, program_for)
from models.natural.session import STORAGE_INCREMENT_KB, NaturalSession, ThreadStorage

__all__ = ["FetchPrograms", "Profile", "ReadAdabas", "ReadWork", "Sort", "WriteLines",
           "program_for", "NaturalSession", "ThreadStorage", "STORAGE_INCREMENT_KB"]
