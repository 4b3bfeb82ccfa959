"""The drawing: what a user puts on the canvas, as plain data.

:mod:`~models.drawing.scenario` (components, links, the experiment a drawing
runs, what stops it from running), :mod:`~models.drawing.components` (the
palette's component kinds), :mod:`~models.drawing.hardware` (the command
line's hardware shorthand: counts and kinds that edit a drawing),
:mod:`~models.drawing.config` (the :class:`Configuration` a model reads from
a drawing), :mod:`~models.drawing.documents` (scenario files and the
built-in case studies) and :mod:`~models.drawing.catalog` (where the drawing
learns, from above, which experiments exist and what each offers).

Nothing here imports an experiment or a study: the experiments package hands
its schemas in through :func:`models.drawing.catalog.install` (see
docs/architecture.md).
"""
