"""The Export menu: chart PNG/SVG/CSV, results tables, clipboard and the slide deck.

:class:`ExportActions` owns the actions and their handlers so the window
class stays about behaviour. Every file is written atomically by
:mod:`app.export` / :mod:`app.pptx_export`; a failure shows one message box
and the app keeps running. The deck's published-vs-model table runs the
model, so the deck is built on a :class:`~app.worker.TaskRunner` with the
window's task progress bar.
"""
from __future__ import annotations

import time
from types import SimpleNamespace

from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QFileDialog, QInputDialog

from app import export, pptx_export, settings
from app.names import file_stem
from app.worker import TaskRunner
from models import experiments
from ui import whatif_deck
from ui.actions import shortcut_action
from ui.canvas_picture import canvas_image
from ui.clip import ClipExport
from ui.clip_dialog import ClipDialog, formats_of
from ui.charts.published import DISPLAY_HEADER, display_rows, published_rows

#: Pixel size of each chart on a slide (16:9, sharp on a projector).
#: Laid out at this size and drawn at 2×: on a 1024×768 projector the 16:9
#: slide is 1024 px wide, so 13 pt legends and ticks show at about 17 px.
SLIDE_CHART_SIZE = (960, 540)


def parse_size(text: str) -> tuple[int, int]:
    """``"1920x1080"`` → (1920, 1080); ValueError with one line if it is not a size."""
    try:
        w, h = (int(x) for x in text.lower().replace("×", "x").split("x"))
    except ValueError:
        raise ValueError(f"'{text}' is not a size: type WIDTHxHEIGHT, e.g. 1920x1080") from None
    if not (16 <= w <= 8000 and 16 <= h <= 8000):
        raise ValueError(f"{w}x{h} is out of range: 16 to 8000 pixels a side")
    return w, h


class ExportActions:
    """The Export menu and what its items do.

    Parameters
    ----------
    document : app.document.Document
        The scenario and its last run (what the tables and the deck export).
    shell : ui.shell.Shell
        The window services used: messages, the task bar, the chart in front.
    scene : CanvasScene
        The canvas, drawn onto the deck's canvas slide.
    """

    def __init__(self, document, shell, scene) -> None:
        self.document, self.shell, self.scene = document, shell, scene
        win = shell
        self.deck_runner = TaskRunner("deck", win, expected=(export.ExportError,))
        self.deck_runner.progressed.connect(win.task_progressed)
        self.deck_note = ""          # what the deck leaves out, said with "Saved slides"
        self.deck_runner.succeeded.connect(
            lambda path: win.say(f"Saved slides {path}{self.deck_note}"))
        self.deck_runner.failed.connect(lambda text: win.alert("Slides not saved", text))
        self.deck_runner.cancelled.connect(lambda: win.say("Slides cancelled: nothing written."))
        self.deck_runner.done.connect(win.end_task)
        self._init_clip()
        self.a = self._build_actions()

    def _act(self, text: str, slot, keys: str = "", tip: str = "") -> QAction:
        return shortcut_action(self.shell, text, slot, keys, tip)

    def _build_actions(self) -> SimpleNamespace:
        a = SimpleNamespace()
        a.png = self._act("Chart as &PNG…", lambda: self.chart_png(1.0), "Ctrl+E",
                          "Save the chart in front as a PNG at screen size")
        a.png2 = self._act("Chart as PNG at &2×…", lambda: self.chart_png(2.0), "Ctrl+Shift+E",
                           "Save the chart in front as a sharp PNG at twice the screen size")
        a.png_size = self._act("Chart as PNG at a chosen &size…", self.chart_png_size,
                               "Ctrl+Alt+E", "Save the chart laid out at an exact pixel size")
        a.svg = self._act("Chart as S&VG…", self.chart_svg, "Ctrl+Shift+G",
                          "Save the chart in front as a vector SVG")
        a.csv = self._act("Chart &data as CSV…", self.chart_csv, "Ctrl+Shift+D",
                          "Save every point of the chart in front, units in the header")
        a.tables_csv = self._act("Results &tables as CSV…", self.tables_csv, "Ctrl+Shift+T",
                                 "Save the last run's metrics and report tables as CSV")
        a.tables_png = self._act("Results tables as &image…", self.tables_png, "Ctrl+Alt+T",
                                 "Save the last run's metrics and report tables as a PNG")
        a.copy = self._act("&Copy chart", self.copy_chart, "Ctrl+Shift+C",
                           "Copy the chart in front to the clipboard as an image")
        a.slides = self._act("S&lides (PowerPoint)…", self.slides, "Ctrl+Shift+P",
                             "A deck of the case study: title, canvas, charts and "
                             "published-vs-model table")
        a.clip = self._act("&Animation clip (MP4/GIF)…", self.clip, "Ctrl+Shift+M",
                           "The animation from one time to another at a chosen speed, "
                           "as a video or GIF for a slide")
        return a

    def fill_menu(self, menu) -> None:
        a = self.a
        for act in (a.png, a.png2, a.png_size, a.svg, a.csv, None, a.copy, None,
                    a.tables_csv, a.tables_png, None, a.clip, a.slides):
            menu.addSeparator() if act is None else menu.addAction(act)

    # ---- helpers ----------------------------------------------------------
    def _ask(self, title: str, name: str, file_filter: str) -> str:
        """A save dialog in the folder used last, the file named by the case."""
        path, _ = QFileDialog.getSaveFileName(self.shell, title, settings.suggested_path(name),
                                              file_filter)
        settings.remember_folder(path)
        return path

    def _case_stem(self) -> str:
        """The case as a file name: the drawing's title, else the experiment's."""
        return file_stem(self.document.title())

    def _save(self, what: str, write) -> bool:
        try:
            path = write()
        except export.ExportError as exc:
            self.shell.alert(f"{what} not saved", str(exc))
            return False
        stale = " (of the run before your last edit)" if self.document.run_is_stale() else ""
        self.shell.say(f"Saved {what.lower()} {path}{stale}")
        return True

    def _chart(self):
        chart = self.shell.current_chart()
        if chart is None or chart.data is None:
            self.shell.alert("No chart", "There is no chart to export: run the scenario (F5) "
                           "and show the Charts or Sweep tab.")
            return None
        return chart

    def _stem(self) -> str:
        chart = self.shell.current_chart()
        key = chart.data.key if chart is not None and chart.data is not None else "chart"
        return f"{self._case_stem()}-{key}"

    # ---- charts -------------------------------------------------------------
    def _compare_halves(self):
        """(charts, labels) of the Compare tab's two sides when it is in front
        with both drawn, else None."""
        if getattr(self.shell, "tab_name", lambda: "")() != "compare":
            return None
        view = self.shell.study.compare_view
        charts = (view.left.current_chart(), view.right.current_chart())
        if any(c is None or c.data is None for c in charts):
            return None
        return charts, (view.label_a.text(), view.label_b.text())

    def chart_png(self, scale: float) -> bool:
        chart = self._chart()
        path = chart and self._ask("Export chart as PNG", f"{self._stem()}.png", "PNG image (*.png)")
        halves = self._compare_halves()
        if path and halves is not None:      # both runs, each under its name
            return self._save("Comparison", lambda: export.save_compare_png(*halves, path, scale))
        return bool(path) and self._save("Chart", lambda: export.save_chart_png(chart, path, scale))

    def chart_png_size(self) -> bool:
        chart = self._chart()
        if chart is None:
            return False
        text, ok = QInputDialog.getText(self.shell, "Chart size", "Width × height in pixels:",
                                        text="1920x1080")
        if not ok:
            return False
        try:
            size = parse_size(text)
        except ValueError as exc:
            self.shell.alert("Chart not saved", str(exc))
            return False
        path = self._ask("Export chart as PNG", f"{self._stem()}-{size[0]}x{size[1]}.png",
                         "PNG image (*.png)")
        return bool(path) and self._save("Chart", lambda: export.save_chart_png(chart, path, size=size))

    def chart_svg(self) -> bool:
        chart = self._chart()
        path = chart and self._ask("Export chart as SVG", f"{self._stem()}.svg", "SVG image (*.svg)")
        halves = self._compare_halves()
        if path and halves is not None:      # both runs, each under its name
            return self._save("Comparison", lambda: export.save_compare_svg(*halves, path))
        return bool(path) and self._save("Chart", lambda: export.save_chart_svg(chart, path))

    def chart_csv(self) -> bool:
        chart = self._chart()
        path = chart and self._ask("Export chart data", f"{self._stem()}.csv", "CSV (*.csv)")
        halves = self._compare_halves()
        if path and halves is not None:
            return self._save("Comparison data", lambda: export.save_compare_csv(*halves, path))
        return bool(path) and self._save("Chart data", lambda: export.save_chart_csv(chart, path))

    def copy_chart(self) -> bool:
        chart = self._chart()
        if chart is None:
            return False
        try:
            export.copy_chart(chart)
        except export.ExportError as exc:
            self.shell.alert("Chart not copied", str(exc))
            return False
        self.shell.say("Copied the chart to the clipboard.")
        return True

    # ---- without dialogs (``zperflab export``) -----------------------------
    def chart_names(self) -> list[tuple[str, str]]:
        """(name, title) of every chart of the last run, in display order."""
        view = self.shell.charts_view()
        return [(key, chart.data.title) for key, chart in view.charts().items()] if view else []

    def write_to(self, path: str, chart_name: str | None = None, progress=None,
                 cancel=None) -> str:
        """Write the last run to ``path``, the format taken from its extension.

        ``.pptx`` is the deck, ``.csv`` the results tables, ``.png`` or
        ``.svg`` one chart (the first, or ``chart_name``: a name or a title
        from :meth:`chart_names`). The same writers as the menu items; raises
        :class:`~app.export.ExportError` with one line.
        """
        ext = path.lower().rsplit(".", 1)[-1] if "." in path else ""
        if ext not in ("pptx", "csv", "png", "svg"):
            raise export.ExportError(f"cannot tell the format of {path}: end it in .pptx, "
                                     ".csv, .png or .svg")
        if self.document.result is None:
            raise export.ExportError("there is no run to export")
        if ext == "csv":
            return str(export.save_tables_csv(export.result_tables(
                self.document.result, self.document.run_name()), path))
        if ext == "pptx":
            exp_name = self.document.scenario.experiment
            job = self._deck_job(path, exp_name)
            return str(job(progress or (lambda f: None), cancel))
        chart = self._named_chart(chart_name)
        self.shell.show_view("charts")
        view = self.shell.charts_view()
        view.tabs.setCurrentWidget(chart)
        QGuiApplication.processEvents()
        if ext == "png":     # laid out as on a slide, drawn at 2x: 1920 x 1080
            return str(export.save_chart_png(chart, path, 2.0, size=SLIDE_CHART_SIZE))
        old = chart.size()
        chart.resize(*SLIDE_CHART_SIZE)
        QGuiApplication.processEvents()
        try:
            return str(export.save_chart_svg(chart, path))
        finally:
            chart.resize(old)

    def write_whatif(self, args, fail) -> int:
        """``zperflab export F OUT --whatif LABEL.prop=VALUE``: run the drawing
        and the what-if, write them as :func:`ui.whatif_deck.export_whatif`
        does; the exit status. The command line reaches the deck through the
        window it made (its one way into ``ui``, docs/architecture.md)."""
        return whatif_deck.export_whatif(self.shell, args, fail)

    def _named_chart(self, name: str | None):
        view = self.shell.charts_view()
        charts = view.charts() if view is not None else {}
        if not charts:
            raise export.ExportError("this run has no chart")
        if name is None:
            return next(iter(charts.values()))
        wanted = name.strip().lower()
        for key, chart in charts.items():
            if wanted in (key.lower(), chart.data.title.lower()):
                return chart
        names = "; ".join(f"{k} ({c.data.title})" for k, c in charts.items())
        raise export.ExportError(f"no chart named '{name}'; charts: {names}")

    # ---- tables -------------------------------------------------------------
    def _tables(self):
        result = self.document.result
        if result is None:
            self.shell.alert("No results", "There are no results to export: run the scenario (F5).")
            return None
        return export.result_tables(result, self.document.run_name())

    def tables_csv(self) -> bool:
        tables = self._tables()
        path = tables and self._ask("Export results tables", f"{self._case_stem()}"
                                    "-results.csv", "CSV (*.csv)")
        return bool(path) and self._save("Tables", lambda: export.save_tables_csv(tables, path))

    def tables_png(self) -> bool:
        tables = self._tables()
        path = tables and self._ask("Export results tables", f"{self._case_stem()}"
                                    "-results.png", "PNG image (*.png)")
        return bool(path) and self._save("Tables", lambda: export.save_tables_png(tables, path, 2.0))

    # ---- slides -------------------------------------------------------------
    def slides(self) -> bool:
        """Ask for a file, grab the pictures here, then build the deck on a worker."""
        win = self.shell
        exp_name = self.document.scenario.experiment
        if exp_name is None:
            win.alert("No case study", "Open a case study or choose an experiment first.")
            return False
        if self.deck_runner.running:
            win.say("The slides are still being built.")
            return False
        path = self._ask("Slides (PowerPoint)", f"{self._case_stem()}.pptx", "PowerPoint (*.pptx)")
        if not path:
            return False
        try:
            job = self._compare_deck_job(path) or self._deck_job(path, exp_name)
        except export.ExportError as exc:
            win.alert("Slides not saved", str(exc))
            return False
        win.begin_task("Building slides…", self.deck_runner.cancel)
        return self.deck_runner.start(job)

    def _compare_deck_job(self, path: str):
        """With Compare in front showing two runs: the before/after deck of
        them (:mod:`ui.whatif_deck`), each named as its half is; else None."""
        if self._compare_halves() is None:
            return None
        view = self.shell.study.compare_view
        a, b = view.left.result, view.right.result
        from ui.compare import bars_name
        pair = whatif_deck.Pair(a, b, bars_name(view.label_a.text()),
                                bars_name(view.label_b.text()), self.document.title())
        self.deck_note = ""
        return whatif_deck.build(path, view, pair)

    def _chart_slides(self) -> list:
        """Every chart of the last run as a slide picture.

        A chart on a tab that is not in front has never been laid out (Qt
        lays out hidden widgets only when they are shown), so each one is
        brought forward while it is drawn; the tabs the user had are restored.
        """
        win = self.shell
        view = win.charts_view()
        was_tab, was_chart = win.tab_name(), view.tabs.currentWidget()
        slides = []
        try:
            win.show_view("charts")
            for chart in view.charts().values():
                view.tabs.setCurrentWidget(chart)
                QGuiApplication.processEvents()
                chart.set_title_shown(False)     # the slide's own title says it
                try:
                    image = export.chart_image(chart, scale=2.0, size=SLIDE_CHART_SIZE)
                finally:
                    chart.set_title_shown(True)
                slides.append(pptx_export.Slide(chart.data.title, export.png_bytes(image)))
        finally:
            view.tabs.setCurrentWidget(was_chart)
            win.show_view(was_tab)
        return slides

    def _deck_job(self, path: str, exp_name: str):
        exp = experiments.get(exp_name)
        canvas = export.png_bytes(canvas_image(self.scene))
        charts = []
        result = self.document.result
        # The deck is of the scenario as drawn: a run of another drawing
        # (edited since) lends it no charts.
        if result is not None and result.experiment == exp_name and not self.document.run_is_stale():
            charts = self._chart_slides()
            self.deck_note = ""
        elif result is None or result.experiment != exp_name:
            self.deck_note = " — no chart slides: there is no run of this drawing (Run, F5)"
        else:
            self.deck_note = (" — no chart slides: the last run is of the drawing before your "
                              "last edit (Run, F5, then save the slides again)")
        title = self.document.scenario.title or exp.title
        subtitle = (f"{exp.title} — zPerfLab, {time.strftime('%Y-%m-%d')}, "
                    f"seed {experiments.DEFAULT_SEED}")
        name = self.document.run_name() if charts else None
        if name is not None and (name.is_whatif or name.imported):
            # "what-if: SGDB2 on SSD, against the baseline as imported"
            subtitle = f"{name.against}\n{subtitle}"
        whatif = name is not None and name.is_whatif
        canvas_title = f"The scenario, {name.label}" if whatif else "The scenario"
        # The published table runs the case study as published: not the what-if.
        table_title = ("Published vs model (the case as published, not the what-if)"
                       if whatif else "Published vs model")

        def job(progress, cancel):
            rows = published_rows(exp_name, None, lambda f: progress(0.9 * f), cancel)
            table = (DISPLAY_HEADER, display_rows(rows)) if rows else None
            return pptx_export.build_deck(path, title, subtitle, canvas_png=canvas,
                                          canvas_title=canvas_title, charts=charts,
                                          table=table, table_title=table_title)
        return job

    # ---- animation clip (issue 21) ------------------------------------------
    def _init_clip(self) -> None:
        win = self.shell
        self.clip_export = ClipExport(win)
        self.clip_export.progressed.connect(win.task_progressed)
        self.clip_export.succeeded.connect(self._on_clip_succeeded)
        self.clip_export.failed.connect(lambda text: win.alert("Clip not saved", text))
        self.clip_export.cancelled.connect(lambda: win.say("Clip cancelled: nothing written."))
        self.clip_export.done.connect(win.end_task)

    def _on_clip_succeeded(self, infos: list) -> None:
        self.shell.say("Saved " + " and ".join(
            f"{info.path} ({info.seconds:.1f} s, {info.frames} frames)" for info in infos))

    def clip(self) -> bool:
        """Ask what to record and where, then write the clip with progress and Cancel."""
        win = self.shell
        replay = win.replay_view()
        if replay is None or replay.data is None or not replay.views:
            win.alert("No animation", "There is nothing to replay: run the scenario (F5) "
                      "and show the Animation tab.")
            return False
        if self.clip_export.running:
            win.say("A clip is still being written.")
            return False
        dialog = ClipDialog(replay, win)
        try:
            if dialog.exec() != ClipDialog.DialogCode.Accepted:
                return False
            fmts = formats_of(dialog.format.currentData())
            exp = self._case_stem()
            view = dialog.view.currentText().lower().replace(" ", "-").replace("/", "-")
            first = fmts[0]
            names = {"mp4": "MP4 video (*.mp4)", "gif": "GIF animation (*.gif)"}
            path = self._ask("Save animation clip" + (" (the GIF goes beside it)"
                                                      if len(fmts) > 1 else ""),
                             f"{exp}-{view}.{first}", names[first])
            if not path:
                return False
            base = path[:-len(first) - 1] if path.lower().endswith(f".{first}") else path
            try:
                plan = dialog.plan({fmt: f"{base}.{fmt}" for fmt in fmts})
            except ValueError as exc:
                win.alert("Clip not saved", str(exc))
                return False
        finally:
            dialog.deleteLater()
        win.begin_task("Writing clip…", self.clip_export.cancel)
        return self.clip_export.start(plan)
