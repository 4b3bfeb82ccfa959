"""General workloads a user puts on their own configuration.

* :class:`~models.workloads.io.IOWorkload` (``wl_io``): I/O against the
  datasets it is linked to, on :class:`models.io.system.IOSystem`;
* :class:`~models.workloads.cpu.CPUWorkload` (``wl_cpu``): CPU demand with a
  zIIP-eligible share, on :class:`models.cpu.ProcessorComplex`;
* :mod:`~models.workloads.system` runs every general workload drawn on one
  engine and gathers the figures (the ``custom`` experiment).

See docs/model-workloads.md.
"""
