"""The Planner tab's actions and toolbar: a build file (New, Open…, Save, Save as…), the builds kept in the app
(Saved builds…, Save in app, Duplicate, Delete), the PDF build sheet, the guides' presets, Suggest…, This
machine, Undo and Redo; their words and tooltips. A mixin of :class:`~configurator.ui.planner.tab.PlannerTab`
(the file actions themselves are files.py's)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QToolBar, QToolButton, QWidget

from configurator.core.detect import DetectedMachine
from configurator.core.i18n import fill
from configurator.core.parts import AnyPart
from configurator.core.presets import Preset, tier_label
from configurator.ui.i18n import translate
from configurator.ui.planner.document import PlannerDocument
from configurator.ui.planner.files import FileActions


class PlannerActions:
    """The tab's actions (made on its toolbar; the window's File menu shows some)."""

    toolbar: QToolBar
    files: FileActions
    doc: PlannerDocument
    detect_machine: Callable[[dict[str, AnyPart]], DetectedMachine] | None
    tiers: list[Preset]

    def suggest_dialog(self) -> None:  # the tab's
        raise NotImplementedError

    def detect_this_machine(self) -> None:  # the tab's
        raise NotImplementedError

    def _make_actions(self) -> None:
        assert isinstance(self, QWidget)  # the actions' parent
        tb, f = self.toolbar, self.files
        self.act_new = QAction(self)
        self.act_new.setObjectName("newBuild")
        self.act_new.setShortcut(QKeySequence.StandardKey.New)
        self.act_new.triggered.connect(f.new_build)
        # A build file (the command line's format): Open… / Save / Save as…, on the usual keys
        self.act_open_file = QAction(self)
        self.act_open_file.setObjectName("openBuildFile")
        self.act_open_file.setShortcut(QKeySequence.StandardKey.Open)
        self.act_open_file.triggered.connect(f.import_dialog)
        self.act_save_file = QAction(self)
        self.act_save_file.setObjectName("saveBuildFile")
        self.act_save_file.setShortcut(QKeySequence.StandardKey.Save)
        self.act_save_file.triggered.connect(lambda: f.save_file())
        self.act_save_as = QAction(self)
        self.act_save_as.setObjectName("saveBuildFileAs")
        self.act_save_as.setShortcut(QKeySequence("Ctrl+Shift+S"))
        self.act_save_as.triggered.connect(f.export_dialog)
        # The builds kept in the app's database (the Upgrade panel and benchmark runs link to them)
        self.act_open = QAction(self)
        self.act_open.setObjectName("openSavedBuild")
        self.act_open.triggered.connect(f.open_saved_dialog)
        self.act_save = QAction(self)
        self.act_save.setObjectName("saveInApp")
        self.act_save.triggered.connect(f.save)
        self.act_duplicate = QAction(self)
        self.act_duplicate.triggered.connect(f.duplicate)
        self.act_delete = QAction(self)
        self.act_delete.triggered.connect(f.delete_saved)
        self.act_pdf = QAction(self)
        self.act_pdf.setObjectName("exportPdf")
        self.act_pdf.setShortcut(QKeySequence("Ctrl+P"))
        self.act_pdf.triggered.connect(f.export_pdf_dialog)
        self.act_suggest = QAction(self)
        self.act_suggest.setObjectName("suggestAction")
        self.act_suggest.triggered.connect(self.suggest_dialog)
        self.act_detect = QAction(self)
        self.act_detect.setObjectName("detectAction")
        self.act_detect.triggered.connect(self.detect_this_machine)
        self.act_detect.setVisible(self.detect_machine is not None)
        # Undo and Redo name the edit in the language shown now: QUndoStack.createUndoAction would keep the prefix
        # ("Undo %1") of the language the window was made in after View → Language switches it
        stack = self.doc.undo_stack
        self.act_undo = QAction(self)
        self.act_undo.setShortcut(QKeySequence.StandardKey.Undo)
        self.act_undo.setEnabled(stack.canUndo())
        self.act_undo.triggered.connect(stack.undo)
        stack.canUndoChanged.connect(self.act_undo.setEnabled)
        self.act_redo = QAction(self)
        self.act_redo.setShortcut(QKeySequence.StandardKey.Redo)
        self.act_redo.setEnabled(stack.canRedo())
        self.act_redo.triggered.connect(stack.redo)
        stack.canRedoChanged.connect(self.act_redo.setEnabled)
        stack.undoTextChanged.connect(self._undo_redo_words)
        stack.redoTextChanged.connect(self._undo_redo_words)
        self.presets_menu = QMenu(self)
        self.presets_button = QToolButton()
        self.presets_button.setObjectName("presetsButton")
        self.presets_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.presets_button.setMenu(self.presets_menu)
        for a in (self.act_new, self.act_open_file, self.act_save_file, self.act_save_as):
            tb.addAction(a)
        tb.addSeparator()
        for a in (self.act_open, self.act_save, self.act_duplicate, self.act_delete):
            tb.addAction(a)
        tb.addSeparator()
        tb.addAction(self.act_pdf)
        tb.addSeparator()
        tb.addWidget(self.presets_button)
        tb.addAction(self.act_suggest)
        tb.addAction(self.act_detect)
        tb.addSeparator()
        tb.addAction(self.act_undo)
        tb.addAction(self.act_redo)

    def file_actions(self) -> list[QAction | None]:
        """The window's File menu shows these (None: a separator); their shortcuts are theirs."""
        return [self.act_new, self.act_open_file, self.act_save_file, self.act_save_as, None,
                self.act_open, self.act_save, None, self.act_pdf]

    def _undo_redo_words(self, _edit: str = "") -> None:
        """Undo and Redo with the edit they would undo or redo ("Undo Edit build"), or alone when there is none."""
        stack = self.doc.undo_stack
        for act, edit, alone, named in (
                (self.act_undo, stack.undoText(), translate("Planner", "Undo"), translate("Planner", "Undo {edit}")),
                (self.act_redo, stack.redoText(), translate("Planner", "Redo"), translate("Planner", "Redo {edit}"))):
            act.setText(fill(named, edit=edit) if edit else alone)

    def _retranslate_actions(self) -> None:
        """The actions' words and tooltips (with their shortcuts), the presets menu's."""
        actions = (
            (self.act_new, translate("Planner", "New")),
            (self.act_open_file, translate("Planner", "Open…")),
            (self.act_save_file, translate("Planner", "Save")),
            (self.act_save_as, translate("Planner", "Save as…")),
            (self.act_open, translate("Planner", "Saved builds…")),
            (self.act_save, translate("Planner", "Save in app")),
            (self.act_duplicate, translate("Planner", "Duplicate")),
            (self.act_delete, translate("Planner", "Delete")),
            (self.act_pdf, translate("Planner", "PDF…")),
            (self.act_suggest, translate("Planner", "Suggest…")),
            (self.act_detect, translate("Planner", "This machine")),
        )
        tips = (
            (self.act_new, translate("Planner", "A new, empty build")),
            (self.act_open_file, translate("Planner", "Open a build file (.json, the format `configurator check` "
                                                      "reads)")),
            (self.act_save_file, translate("Planner", "Save the build to its build file (the first time: choose "
                                                      "where)")),
            (self.act_save_as, translate("Planner", "Save the build to another build file")),
            (self.act_open, translate("Planner", "Open a build kept in the app's database")),
            (self.act_save, translate("Planner", "Keep the build in the app's database (the Upgrade panel, "
                                                 "benchmark runs and PWR-4 use the builds kept there)")),
            (self.act_duplicate, translate("Planner", "Keep a copy of the build in the app's database")),
            (self.act_delete, translate("Planner", "Delete the build from the app's database")),
            (self.act_pdf, translate("Planner", "Export the build sheet as a PDF")),
        )
        for act, tip in tips:
            shortcut = act.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            act.setToolTip(f"{tip} ({shortcut})" if shortcut else tip)
        for act, text in actions:
            act.setText(text)
        self.act_detect.setToolTip(translate("Planner", "This machine as a build: its GPUs, CPU, memory, board and "
                                                        "drives matched to catalogue parts (what is not matched is "
                                                        "left for you to pick)"))
        self._undo_redo_words()
        self.presets_button.setText(translate("Planner", "Presets"))
        for act, preset in zip(self.presets_menu.actions(), self.tiers, strict=False):
            act.setText(f"{preset.tier.id} · {preset.tier.source} · {tier_label(preset.tier.id, translate)}")
