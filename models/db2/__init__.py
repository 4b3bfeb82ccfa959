"""DB2 for z/OS access paths on the I/O model (case study E).

* :mod:`models.db2.dataset` — table spaces and indexes as data sets of 4 KB
  pages on 3390 volumes; disorganized leaf page order.
* :mod:`models.db2.access` — which pages an access reads and how: RID lists,
  skip patterns, TABLESAMPLE, sequential detection, the read plans.
* :mod:`models.db2.cpu` — class 2 and prefetch engine CPU costs.
* :mod:`models.db2.bufmgr` — the application thread and prefetch engines as
  processes reading through the I/O subsystem.
* :mod:`models.db2.iopath` — the bridge from DB2 reads to models.io.
* :mod:`models.db2.runs` — the experiments' run functions and reports.

Sweeps over a parameter (the paper's figure families) are generic:
:mod:`models.studies.sweep`.
"""
