"""CICS regions, file control under LSR and RLS, the coupling facility, the
System Logger, and the ``vsam_rls`` experiment's simulation
(:func:`simulate`)."""
from models.cics.region import Sysplex
from models.cics.report import metrics, tables


def simulate(params: dict, seed: int = 1, trace=None, progress=None, config=None) -> Sysplex:
    """Build and run the sysplex for resolved ``vsam_rls`` parameters.

    Parameters
    ----------
    params : dict
        Resolved parameters of the ``vsam_rls`` experiment.
    seed : int
        Run seed.
    trace : Trace or None
        Where to record animation rows.
    progress : callable or None
        Called with the fraction of transactions done.
    config : models.drawing.config.Configuration or None
        The drawing: the file's volume, its control unit and paths, and the
        coupling facility, by canvas name.

    Returns
    -------
    Sysplex
        The finished simulation; :func:`metrics` and :func:`tables` read it.
    """
    sp = Sysplex(params, seed, trace, progress, config)
    sp.run()
    return sp


__all__ = ["Sysplex", "metrics", "simulate", "tables"]
