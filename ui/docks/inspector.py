"""The property inspector, generated from the experiment's parameter schema.

For the selected component it shows the label and the parameters of the
scenario's experiment whose ``group`` is the component's category — the same
:class:`~models.core.params.Param` objects ``zperflab run --set`` uses, with their
units, ranges and help text as tooltips. Values go through the editor; a value
the parameter refuses is shown with the reason and never clamped.
"""
from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFormLayout, QLabel, QLineEdit,
                               QScrollArea, QVBoxLayout, QWidget)

from app.names import format_mix, format_value, words
from models import experiments
from models.drawing import components, variants
from models.core.params import Param
from ui.canvas.menus import VARIANT_TITLES
from ui.canvas.scene import CanvasScene
from ui.editor import Editor

ERROR_STYLE = "color: #a00000; font-weight: bold;"
NOTE_STYLE = "color: #3c4650;"


def parse_mix(text: str, choices) -> Any:
    """``Read 69 %, Read update 10 %`` → ``{"read": 69, "read_update": 10}``.

    Text that is not in that form is handed on unchanged (JSON, or a typo the
    editor refuses with one message naming the allowed choices).
    """
    names = {str(words(c)).lower(): c for c in choices} | {str(c).lower(): c for c in choices}
    out = {}
    for part in filter(None, (s.strip() for s in text.split(","))):
        label, _, number = part.rstrip("% ").rpartition(" ")
        key = names.get(label.strip().lower())
        try:
            out[key] = float(number)
        except ValueError:
            return text
        if key is None:
            return text
    return {k: int(v) if v.is_integer() else v for k, v in out.items()} or text


class Inspector(QScrollArea):
    """Shows and edits the selected component (or the scenario's problems)."""

    def __init__(self, editor: Editor, scene: CanvasScene, parent=None) -> None:
        super().__init__(parent)
        self.editor, self.scene = editor, scene
        self.setWidgetResizable(True)
        self.node_id: str | None = None
        self.fields: dict[str, QWidget] = {}
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(ERROR_STYLE)
        self.error.setObjectName("inspectorError")
        scene.selectionChanged.connect(self._on_scene_selection_changed)
        # The document announces each batch of edits once (app/document.py).
        editor.document.changed.connect(self._on_document_changed)
        self.rebuild()

    def _on_scene_selection_changed(self) -> None:
        if self.scene.scenario is None:
            return
        ids = self.scene.selected_node_ids()
        self.show_node(ids[0] if len(ids) == 1 else None)

    def _on_document_changed(self, change) -> None:
        if change.moved_only or not (change.scenario or change.replaced):
            return
        # The drawing changed: redraw unless the user is typing here.
        focus = self.focusWidget()
        if isinstance(focus, QLineEdit) and self.isAncestorOf(focus) and focus.isModified():
            return
        if self.node_id is not None and self.node_id not in self.editor.scenario.nodes:
            self.node_id = None
        self.rebuild(keep_error=True)

    def show_node(self, node_id: str | None) -> None:
        self.node_id = node_id
        self.rebuild()

    # ---- building the form ---------------------------------------------
    def rebuild(self, keep_error: bool = False) -> None:
        message = self.error.text() if keep_error else ""
        self.error = QLabel(message)
        self.error.setWordWrap(True)
        self.error.setStyleSheet(ERROR_STYLE)
        self.error.setObjectName("inspectorError")
        self.fields = {}
        page = QWidget()
        layout = QVBoxLayout(page)
        if self.node_id is None:
            self._build_overview(layout)
        else:
            self._build_node(layout)
        layout.addWidget(self.error)
        layout.addStretch(1)
        # The old page may hold the very field whose signal got us here:
        # delete it later, not now.
        old = self.takeWidget()
        if old is not None:
            old.deleteLater()
        self.setWidget(page)

    def _note(self, layout, text: str, style: str = NOTE_STYLE) -> QLabel:
        label = QLabel(text)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setStyleSheet(style)
        layout.addWidget(label)
        return label

    def _build_overview(self, layout) -> None:
        sc = self.editor.scenario
        if sc.experiment is None:
            self._note(layout, "<b>No experiment yet.</b> Drag a workload from the palette; "
                               "it picks the experiment, which you can change in the toolbar.")
        else:
            exp = experiments.get(sc.experiment)
            self._note(layout, f"<b>{exp.title}</b><br>{exp.description}")
        issues = sc.issues()
        if issues:
            items = "".join(f"<li>{_where(sc, i)}</li>" for i in issues)
            self._note(layout, f"<b>Before it can run:</b><ul>{items}</ul>", "color: #8a1c00;")
        elif sc.experiment is not None:
            self._note(layout, "<b>Ready to run</b> (F5).", "color: #1b5e20;")
        self._note(layout, "<i>Select a component to see and edit its parameters.</i>")

    def _build_node(self, layout) -> None:
        sc = self.editor.scenario
        node = sc.nodes[self.node_id]
        k = components.kind(node.kind)
        self._note(layout, f"<b style='font-size:12pt'>{k.label}</b><br>{k.help}")
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        label_edit = QLineEdit(node.label)
        label_edit.setObjectName("label")
        label_edit.editingFinished.connect(lambda: self._on_label_edited(label_edit))
        form.addRow("Label", label_edit)
        self.fields["label"] = label_edit
        kinds = variants.choices(sc, node.id)
        for prop, values in kinds.items():
            form.addRow(self._variant_label(prop), self._variant_field(prop, values))
        # A value the kind fixes (a volume's device) is what the combo above changes.
        params = [p for p in sc.params_for(node.id)
                  if not (kinds and sc.fixed_by_kind(node.id, p.name))]
        for p in params:
            form.addRow(self._row_label(p), self._field(p))
        layout.addLayout(form)
        if sc.experiment is None:
            self._note(layout, "<i>Choose an experiment to see this component's parameters.</i>")
        elif not params:
            title = experiments.get(sc.experiment).title
            self._note(layout, f"<i>'{title}' has no parameters on a {k.label.lower()}.</i>")
        elif len(sc.of_category(k.category)) > 1:
            shared = [p.title for p in params if sc.is_shared(node.id, p.name)]
            if shared:
                what = k.category.replace("_", " ")
                self._note(layout, f"<i>Shared by every {what} in the scenario (the experiment "
                                   f"models one value): {', '.join(shared)}. The other values "
                                   f"are this {what}'s own.</i>")
        for msg in self.scene.issues_for(node.id):
            self._note(layout, "⚠ " + msg, "color: #8a1c00;")

    def _variant_label(self, prop: str) -> QLabel:
        label = QLabel(VARIANT_TITLES.get(prop, prop.capitalize()))
        label.setToolTip(self._variant_tip(prop))
        return label

    def _variant_tip(self, prop: str) -> str:
        label = self.editor.scenario.nodes[self.node_id].label
        what = ("the drives of every volume on it" if
                self.editor.scenario.nodes[self.node_id].category == "rank" else "this card")
        return (f"<b>{VARIANT_TITLES.get(prop, prop)}</b>: changes {what} in place; the "
                "label, serials, counts and links stay (one undo step). Also: right-click "
                f"the card ▸ Change to.<br><span style='color:#555'>Command line: --set "
                f"{label}.{prop}=…</span>")

    def _variant_field(self, prop: str, values: list[str]) -> QComboBox:
        """The card's type as a combo: choosing another changes it in place."""
        w = QComboBox()
        w.addItems(values)
        now = variants.current(self.editor.scenario, self.node_id, prop)
        if now in values:
            w.setCurrentIndex(values.index(now))
        w.activated.connect(lambda i, prop=prop, values=values:
                            self._on_variant_chosen(prop, values[i]))
        w.setObjectName(prop)
        w.setToolTip(self._variant_tip(prop))
        self.fields[prop] = w
        return w

    def _on_variant_chosen(self, prop: str, value: str) -> None:
        why = self.editor.change_kind(self.node_id, prop, value)
        self.error.setText(why or "")
        if why:
            self.rebuild(keep_error=True)     # the combo goes back to what the card is

    def _row_label(self, p: Param) -> QLabel:
        label = QLabel(f"{p.title}" + (f" ({p.unit})" if p.unit else ""))
        label.setToolTip(self._tip(p))
        return label

    def _tip(self, p: Param) -> str:
        # The title heads it; the key appears only as what to type on the
        # command line (zperflab run --set KEY=VALUE), said as such.
        return (f"<b>{p.title}</b>: {p.help}<br><i>Allowed: {p.allowed()}; default "
                f"{format_value(p.default) or 'not set'}.</i><br>"
                f"<span style='color:#555'>Command line: --set {p.name}=… (on every "
                f"{p.group.replace('_', ' ')} of the drawing)</span>")

    def _field(self, p: Param) -> QWidget:
        sc = self.editor.scenario
        value = sc.value_for(self.node_id, p)
        fixed = sc.fixed_by_kind(self.node_id, p.name)
        if p.kind == "choice":
            w = QComboBox()
            w.addItems([str(words(c)) for c in p.choices])
            if value in p.choices:
                w.setCurrentIndex(p.choices.index(value))
            w.activated.connect(lambda i, p=p: self._commit(p, p.choices[i]))
        elif p.kind == "bool":
            w = QCheckBox()
            w.setChecked(bool(value))
            w.toggled.connect(lambda on, p=p: self._commit(p, on))
        else:
            shown = (format_mix(value) if p.kind == "mix" and isinstance(value, dict)
                     else format_value(value))
            w = QLineEdit(shown)
            w.setPlaceholderText("not set" if p.optional else "")
            w.editingFinished.connect(lambda w=w, p=p: self._on_text_edited(w, p))
        w.setObjectName(p.name)
        w.setToolTip(self._tip(p) + ("<br><b>Fixed by the component kind</b>: replace the "
                                     "component to change it." if fixed else ""))
        w.setEnabled(not fixed)
        self.fields[p.name] = w
        return w

    # ---- edits -----------------------------------------------------------
    def _on_text_edited(self, w: QLineEdit, p: Param) -> None:
        if not w.isModified():
            return
        w.setModified(False)
        text = w.text().strip()
        value = parse_mix(text, p.choices) if p.kind == "mix" and text else text
        self._commit(p, None if (text == "" and p.optional) else value, w)

    def _commit(self, p: Param, value: Any, w: QWidget | None = None) -> None:
        why = self.editor.set_property(self.node_id, p.name, value)
        if why:
            self.error.setText(why)
            if w is not None:
                w.setStyleSheet("border: 2px solid #c00000;")
        else:
            self.error.setText("")
            self.rebuild()

    def _on_label_edited(self, w: QLineEdit) -> None:
        if self.node_id is None or not w.isModified():
            return
        w.setModified(False)
        why = self.editor.rename(self.node_id, w.text())
        self.error.setText(why or "")
        # The refusal shows on the field too: red until a good label is typed.
        w.setStyleSheet("border: 2px solid #c00000;" if why else "")


def _where(sc, issue) -> str:
    if issue.node is None:
        return issue.message
    return f"<b>{sc.nodes[issue.node].label}</b>: {issue.message}"
