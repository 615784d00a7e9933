"""The planner with the build as one node of a cluster (CLU-1): the form's two fields, the results' cluster
section, the finding, and the PDF sheet."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from configurator.core.presets import presets
from configurator.ui.main_window import MainWindow
from configurator.ui.planner.tab import PlannerTab


def test_cluster_fields_show_the_cluster_section_the_finding_and_the_pdf(qtbot, window: MainWindow,  # type: ignore[no-untyped-def]
                                                                        tmp_path: Path) -> None:
    tab = window.tabs.widget(0)
    assert isinstance(tab, PlannerTab)
    tab.apply_preset(next(p for p in presets(tab.catalogue) if p.tier.id == "TIER-pro"))
    qtbot.waitUntil(lambda: tab.report is not None and tab.report.estimate("throughput_total") is not None,
                    timeout=3000)
    assert tab.report is not None and tab.report.estimate("cluster_throughput") is None
    form = tab.form
    form.interconnect.setCurrentIndex(form.interconnect.findData("1gbe"))
    form.nodes.setValue(4)
    qtbot.waitUntil(lambda: tab.report is not None and tab.report.estimate("cluster_throughput") is not None,
                    timeout=3000)
    html = tab.results.estimates_label.toPlainText()
    assert "Cluster: 4 nodes over 1 GbE" in html and "Scaling across nodes" in html and "¥134,600" in html
    assert any(f.rule == "CLU-1" and f.severity == "warning" for f in tab.report.findings)
    assert tab.doc.build.cluster is not None and tab.doc.build.cluster.nodes == 4
    pdf = tmp_path / "集群.pdf"
    assert tab.export_pdf(pdf)
    text = "".join("".join(page.extract_text().split()) for page in PdfReader(pdf).pages)
    assert "Cluster:4nodesover1GbE" in text and "Throughput,allnodes" in text
    form.nodes.setValue(1)
    qtbot.waitUntil(lambda: tab.report is not None and tab.report.estimate("cluster_throughput") is None,
                    timeout=3000)
    assert "Cluster:" not in tab.results.estimates_label.toPlainText()
    tab.doc.undo_stack.setClean()
