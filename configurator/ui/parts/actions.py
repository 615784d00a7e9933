"""What the Parts tab's buttons do to the store: add a custom part, delete one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMessageBox

from configurator.core.i18n import fill
from configurator.store.repository import RepositoryError
from configurator.ui.i18n import translate
from configurator.ui.part_columns import ALL

if TYPE_CHECKING:
    from configurator.ui.parts.browser import PartsBrowser


def add_custom_part(browser: PartsBrowser) -> None:
    """The custom-part dialog, for the category shown (a GPU from "All parts"); the new part is selected."""
    from configurator.ui.custom_part_dialog import CustomPartDialog

    category = browser.category if browser.category != ALL else "gpu"
    dialog = CustomPartDialog(browser.repo, category, browser, settings=browser.settings)
    if dialog.exec() and dialog.created is not None:
        browser.reload(select_id=dialog.created.id)


def delete_custom_part(browser: PartsBrowser) -> None:
    """Delete the selected custom part, after asking (catalogue parts cannot be deleted)."""
    part = browser.detail.part
    if part is None or not part.custom:
        return
    answer = QMessageBox.question(
        browser, translate("PartsBrowser", "Delete custom part"),
        fill(translate("PartsBrowser", "Delete your part “{name}”? This cannot be undone."), name=part.name))
    if answer != QMessageBox.StandardButton.Yes:
        return
    try:
        browser.repo.delete_custom(part.id)
    except RepositoryError as exc:
        QMessageBox.warning(browser, translate("PartsBrowser", "Not deleted"), exc.message.render(translate))
        return
    browser.detail.show_part(None)
    browser.reload()
