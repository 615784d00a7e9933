"""The Cluster page before any server has answered: an explanation, not empty tables and a heat map whose
axes run from −0.5 to 0.5 "s ago (x0.001)"."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from configurator.ui.monitor.cluster_view import ClusterView
from configurator.ui.tasks import TaskRunner


@pytest.fixture
def view(qtbot: Any, settings: QSettings) -> Iterator[ClusterView]:
    tasks = TaskRunner()
    v = ClusterView(settings, tasks, refresh_s=60, timeout_s=0.3)
    qtbot.addWidget(v)
    v.show()
    qtbot.waitExposed(v)
    yield v
    v.stop()
    assert tasks.wait(10000)


def test_no_server_shows_what_the_page_will_show_and_no_heat_map(qtbot: Any, view: ClusterView) -> None:
    assert view.pages.currentWidget() is view.empty_page
    assert not view.heatmap.isVisible() and not view.nodes.isVisible()
    assert "Enter the address of the Prometheus server" in view.empty_page.text()
    assert "heat map" in view.empty_page.text()


def test_a_server_that_does_not_answer_keeps_the_empty_page_and_forget_returns_to_it(
        qtbot: Any, view: ClusterView) -> None:
    silent = socket.socket()  # accepts connections and never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen(4)
    try:
        with qtbot.waitSignal(view.refreshed, timeout=10000):
            view.set_server(f"127.0.0.1:{silent.getsockname()[1]}")
            assert view.pages.currentWidget() is view.empty_page
            assert "answers" in view.empty_page.text() and str(silent.getsockname()[1]) in view.empty_page.text()
        assert view.error is not None and view.pages.currentWidget() is view.empty_page
        view.show_overview()  # "Back" from a node: still nothing to show
        assert view.pages.currentWidget() is view.empty_page
    finally:
        silent.close()
    view.forget()
    assert view.pages.currentWidget() is view.empty_page and "Enter the address" in view.empty_page.text()
