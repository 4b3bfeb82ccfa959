"""What every model, experiment and study shares, and nothing else.

:mod:`~models.core.params` (parameters, schemas, metrics),
:mod:`~models.core.run` (what a run takes and gives back: RunContext,
RunResult, tables), :mod:`~models.core.resources` (where the bundled data
files are) and :mod:`~models.core.analytic` (the utilisation law and
open-queue estimates printed beside the simulation). These import only the
event engine.
"""
