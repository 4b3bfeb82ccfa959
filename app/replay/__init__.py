"""The replay analysis of a run's trace, Qt-free: what the charts and the
animation show, computed once here and drawn by the views in ``ui/``.

- :mod:`app.replay.data` — :class:`~app.replay.data.ReplayData`, a trace sorted
  and indexed for replay (rows of a component and kind up to a time);
- :mod:`app.replay.activity` — what each component is doing at a time
  (busy, idle, which I/O phase), for the canvas tint and the activity view;
- :mod:`app.replay.series` — the chart data (series, titles, units, scope)
  derived from a result.

Kinds, phases and roles come from :mod:`models.engine.trace_vocab`.
"""
