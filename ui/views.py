"""The result views beside the canvas (charts, animation), built by their own packages,
and the page that makes each one follow the document (:class:`RunPage`).

Each view is a QWidget with ``set_result(result)``; :func:`install_result_views`
adds those that exist in this build as tabs of the main window. A package that
has not landed yet (``ui.animation`` while it is being written) is left out;
any other import error is a bug and is raised.
"""
from __future__ import annotations

import importlib

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

#: Tab name → (module, class) of the views the window offers.
VIEWS = (("charts", "ui.charts", "ChartsView"), ("animation", "ui.animation", "ReplayView"))


def install_result_views(window) -> list[str]:
    """Add every available result view to ``window``; returns their names."""
    added = []
    for name, module_name, class_name in VIEWS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        cls = getattr(module, class_name, None)
        if cls is None:
            continue
        window.add_view(name, cls())
        added.append(name)
    return added


#: A run whose trace holds more rows than this (the Large shop's ring holds
#: 2 million) is drawn on the Charts and Animation tabs when one is opened,
#: not while the Results panel waits for it: sorting and binning its trace
#: for both took a second and a half after each run.
DEFER_TRACE_ROWS = 200_000


def big_trace(result) -> bool:
    """Whether ``result`` carries a trace of more than :data:`DEFER_TRACE_ROWS` rows."""
    trace = getattr(result, "trace", None)
    return trace is not None and len(trace) > DEFER_TRACE_ROWS


STALE_STYLE = ("background: #fff4d6; color: #5a4300; padding: 4px 8px;"
               "border-bottom: 1px solid #e0c98a;")
FAILED_STYLE = ("background: #fde7e7; color: #8a0000; padding: 4px 8px; font-weight: bold;"
                "border-bottom: 1px solid #e0a0a0;")


class StaleBanner(QLabel):
    """One line over a view, shown while the run it shows is not the drawing's.

    It follows the :class:`~app.document.Document`: after any edit but a move
    it asks :meth:`~app.document.Document.run_is_stale`, and names the
    scenario the run came from, so no view passes an old run off as the
    drawing's.
    """

    def __init__(self, document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.setObjectName("staleBanner")
        self.setWordWrap(True)
        self.setStyleSheet(STALE_STYLE)
        self.setVisible(False)
        document.changed.connect(self._on_document_changed)

    def _on_document_changed(self, change) -> None:
        if change.moved_only:
            return
        failed = self.document.failure_message()
        text = failed or self.document.stale_message()
        self.setStyleSheet(FAILED_STYLE if failed else STALE_STYLE)
        self.setText(text)
        self.setVisible(bool(text))


class RunPage(QWidget):
    """A tab page: a view (in its holder) under a :class:`StaleBanner`.

    The view follows the document: ``show(document.result)`` is called
    whenever the document's run changes (a run finished, or the scenario was
    replaced and its run dropped).

    Parameters
    ----------
    document : app.document.Document
        What the view follows.
    body : QWidget
        The view, or the scroll area holding it.
    show : callable
        Shows a result (or ``None``: nothing to show).
    name : str
        The view's name (object name of the page).
    defer : callable, optional
        ``defer(result)`` true: while the page is hidden, a run is shown only
        when the page is opened (or :meth:`bring_up_to_date` is called); the
        run before is dropped from the view at once.
    """

    def __init__(self, document, body: QWidget, show, name: str = "", defer=None) -> None:
        super().__init__()
        self.setObjectName(f"{name}Page" if name else "runPage")
        self.document, self._show = document, show
        self._defer = defer
        #: The document's run is not shown yet: it will be when the page opens.
        self.pending = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.banner = StaleBanner(document)
        layout.addWidget(self.banner)
        layout.addWidget(body, 1)
        self._body = body
        document.changed.connect(self._on_document_changed)
        if document.result is not None:
            self._name_run()
            show(document.result)
            self._name_parts()

    def widget(self) -> QWidget:
        """The view shown (as ``QScrollArea.widget()``: the page stands in for its holder)."""
        body = self._body
        return body.widget() if hasattr(body, "widget") else body

    def _on_document_changed(self, change) -> None:
        if not change.run:
            return
        result = self.document.result
        if (result is not None and self._defer is not None and not self.isVisible()
                and self._defer(result)):
            # Drawn when opened: nothing may read the run before as this one.
            self.pending = True
            self._show(None)
            return
        self._put(result)

    def bring_up_to_date(self) -> None:
        """Show the document's run now if it waits for the page to open."""
        if self.pending:
            self._put(self.document.result)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        self.bring_up_to_date()
        super().showEvent(event)

    def _put(self, result) -> None:
        self.pending = False
        self._name_run()
        self._show(result)
        self._name_parts()

    def _name_run(self) -> None:
        """Tell a view that names runs (the charts) what this one is: a
        what-if's bars beside RMF's are never called "model"."""
        naming = getattr(self.widget(), "set_run_name", None)
        if naming is not None and self.document.result is not None:
            naming(self.document.run_name().beside_rmf())

    def _name_parts(self) -> None:
        """Name the run in the parts a view built for it (the Results dock's
        Measured table): a what-if's column is the what-if's, not "model"."""
        from ui.docks.measured_table import MeasuredView
        if self.document.result is None:
            return
        name = self.document.run_name()
        for part in self.widget().findChildren(MeasuredView):
            part.set_run_name(name)
