"""Program fetch from PDS and PDSE load libraries, and library space (case study A).

* :mod:`~models.loadlib.layout`: PDS directory blocks and load modules on
  3390 tracks as the binder writes them; :func:`layout.library_space`.
* :mod:`~models.loadlib.pdse`: 4 KB pages, the indexed directory, program
  object classes and FETCHOPT.
* :mod:`~models.loadlib.volume`: channel programs against a cached or
  native 3390 (search, read, zHPF chains; PEND/DISC/CONN).
* :mod:`~models.loadlib.fetch`: the LOAD/DELETE job step on the engine.
* :mod:`~models.loadlib.linklib`: the bundled SYS1.LINKLIB member sizes (drawn, not measured).
* :mod:`~models.loadlib.costs`: every timing and CPU constant, with sources.
* :mod:`~models.loadlib.runs`: the ``program_fetch`` and ``library_space`` runs.
"""
