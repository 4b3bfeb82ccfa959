"""Studies over runs: what is done with many runs of the experiments.

:mod:`~models.studies.replicate` (seeds, means and confidence intervals),
:mod:`~models.studies.sweep` (the cross product of parameter values),
:mod:`~models.studies.calibration` (the published figures and their
verdicts) and :mod:`~models.studies.whatif` (before/after pairs of
drawings). A study uses the experiments; no experiment uses a study.
"""
