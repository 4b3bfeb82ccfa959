"""z/VM spool files on 3390 spool volumes, dumped to and loaded from 3490
tape by SPTAPE or SPXTAPE (case study C).

Modules: :mod:`files` (seeded file-size generator), :mod:`placement`
(where each page lives), :mod:`volume` (3390 spool volume timing),
:mod:`costs` (CPU per operation, dispatch delay, idle accounting),
:mod:`sptape` and :mod:`spxtape` (the two programs) and :mod:`results`
(metrics and RMF-style tables). The model is described in
docs/model-spool.md.
"""
