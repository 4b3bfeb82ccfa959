"""What the action classes may ask of the main window, and nothing else.

The Export, study and replication actions take the
:class:`~app.document.Document` (the scenario and its last run) and a
:class:`Shell`: the few window services they need (the status bar, message
boxes, the task progress bar, bringing a tab forward). They read no other
window attribute, so the window is not a service locator and each action
class can be built in a test with the document and a stand-in shell.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol


class Shell(Protocol):
    """The window services an action class uses (the window implements them).

    It is also the parent widget of the dialogs, actions and workers the
    action class creates.
    """

    def say(self, text: str) -> None:
        """A one-line message in the status bar."""

    def alert(self, title: str, text: str) -> Any:
        """A window-modal warning that does not block."""

    def begin_task(self, text: str, cancel: Callable[[], None] | None = None) -> None:
        """Show a background job's progress (and Cancel) in the status bar."""

    def task_progressed(self, fraction: float) -> None:
        """Move the job's progress bar."""

    def end_task(self) -> None:
        """Hide the job's progress bar."""

    def show_view(self, name: str) -> str | None:
        """Bring a tab forward; an error line if there is none."""

    def add_view(self, name: str, widget: Any, follows_runs: bool = True) -> None:
        """Add a tab."""

    def tab_name(self) -> str:
        """The name of the tab in front."""

    def open_scenario(self, scenario: Any, message: str) -> bool:
        """Replace the scenario (asking to save changes); False if refused."""

    def runnable_experiment(self) -> str | None:
        """The drawing's experiment if it can run, else None (the reason is shown)."""

    def report_failure(self, message: str) -> None:
        """A run failed: say why in the results dock and the status bar."""

    def show_results(self) -> None:
        """Bring the Results panel forward."""

    def current_chart(self) -> Any:
        """The chart the Export menu acts on (None if there is none)."""

    def charts_view(self) -> Any:
        """The Charts tab's view (None in a build without charts)."""

    def replay_view(self) -> Any:
        """The Animation tab's replay view (None in a build without it)."""
