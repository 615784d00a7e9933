"""The build sheet as an A4 PDF: written atomically and never through a symbolic link (configurator.files),
so a failure never leaves half a file.

Works without a display (QT_QPA_PLATFORM=offscreen): text through QTextDocument, the chart
drawn with QPainter into an image. Chinese text needs a CJK font (fonts-wqy-microhei or
Noto CJK); Qt embeds the glyphs it uses.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QSizeF, QUrl
from PySide6.QtGui import (
    QColor,
    QFont,
    QImage,
    QPagedPaintDevice,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
    QTextBlock,
    QTextBlockFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)

from configurator import __version__
from configurator.core.cluster_estimates import CLUSTER_KEYS
from configurator.core.engine import Report
from configurator.core.estimate.cluster import INTERCONNECTS
from configurator.core.findings import CONFIDENCE_LABELS, ESTIMATE_LABELS, Estimate, source_text
from configurator.core.i18n import Message, fill
from configurator.core.numbers import unit_text
from configurator.core.presets import tier_label
from configurator.core.sheet import (
    UNVERIFIED_MARK,
    UNVERIFIED_NOTE,
    WORKLOAD_LABELS,
    Sheet,
    SheetRow,
    round_ticks,
    tick_text,
    workload_summary,
)
from configurator.files import refuse_link, write_atomic
from configurator.ui.i18n import translate
from configurator.ui.part_columns import display_value
from configurator.ui.planner.estimate_words import (
    WHOLE_NUMBERS,
    estimate_label,
    range_text,
    row_label,
    serving_estimates,
    serving_heading,
    unit_words,
    value_text,
)

FONT_FAMILIES = ["DejaVu Sans", "Noto Sans", "WenQuanYi Micro Hei", "Noto Sans CJK SC", "Microsoft YaHei",
                 "PingFang SC", "Arial"]
SEVERITY_COLOURS = {"error": "#c0392b", "warning": "#b9770e", "info": "#2e86c1"}


def esc(text: object) -> str:
    return html.escape(str(text))


def _text(value: Message | str) -> str:
    return value.render(translate) if isinstance(value, Message) else value


def unbroken(text: str) -> str:
    """A price or a figure with its unit, never broken across lines (Chinese text may break anywhere)."""
    return f"<span style='white-space:nowrap'>{esc(text)}</span>"


def _figure(number: str, unit: str) -> str:
    """A figure in a narrow column: the number, its unit on the line below where it has one (a long unit,
    "token/秒（每 ¥1000）", is never broken inside a word, nor glued to the number)."""
    if len(unit) <= 4:  # W, GiB, %: beside the number
        return f"<b>{unbroken(f'{number} {unit}'.strip())}</b>"
    return f"<b>{unbroken(number)}</b><br><small>{esc(unit)}</small>"


def _specs_html(row: SheetRow) -> str:
    """A part's key specifications; a figure no vendor source confirmed has the mark after it, and the row
    names every such figure of the part (those of its key specifications and the others)."""
    doubt = {name for name, _label in row.unverified}
    shown = []
    for name, label, unit, value in row.specs:
        # a spec the part does not have reads "n/a", without a unit ("Height n/a", not "Height n/a mm")
        text = f"{translate('parts', label)} {display_value(name, value)}" \
               f"{' ' + translate('parts', unit) if unit and value is not None else ''}"
        mark = f" <b style='color:#b9770e'>{UNVERIFIED_MARK}</b>" if name in doubt else ""
        shown.append(esc(text) + mark)
    out = " · ".join(shown)
    if row.unverified:
        words = fill(translate("Sheet", "Unverified: {fields}"),
                     fields=", ".join(translate("parts", label) for _name, label in row.unverified))
        out += f"<br><span style='color:#b9770e'>{UNVERIFIED_MARK} {esc(words)}</span>"
    return out


def chart_image(sheet: Sheet, width: int = 1600, height: int = 640) -> QImage:
    img = QImage(width, height, QImage.Format.Format_ARGB32)
    img.fill(QColor("white"))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    font = QFont()
    font.setFamilies(FONT_FAMILIES)
    font.setPixelSize(26)
    p.setFont(font)
    points = sheet.chart
    ticks = round_ticks(max((pt.value for pt in points), default=0))
    top = ticks[-1]
    left, bottom, right, head = 150, 90, 20, 30
    plot_h = height - bottom - head
    plot_w = width - left - right
    p.setPen(QColor("#cccccc"))
    for value in ticks:  # round numbers, from 0 to the top
        y = head + plot_h * (1 - value / top)
        p.drawLine(left, int(y), width - right, int(y))
        p.setPen(QColor("#555555"))
        p.drawText(0, int(y) - 14, left - 12, 28, 0x0082, tick_text(value, ticks))  # AlignRight|VCenter
        p.setPen(QColor("#cccccc"))
    n = max(len(points), 1)
    slot = plot_w / n
    for i, pt in enumerate(points):
        h = plot_h * pt.value / top
        x = left + slot * i + slot * 0.2
        p.fillRect(int(x), int(head + plot_h - h), int(slot * 0.6), int(h),
                   QColor("#2e86c1") if pt.this_build else QColor("#aab7b8"))
        p.setPen(QColor("#222222"))
        label = translate("Sheet", "This build") if pt.this_build else tier_label(pt.label, translate, short=True)
        p.drawText(int(left + slot * i), height - bottom + 10, int(slot), 36, 0x0084, label)  # AlignHCenter|Top
        p.drawText(int(left + slot * i), int(head + plot_h - h) - 34, int(slot), 30, 0x0084, f"{pt.value:,.0f}")
    p.setPen(QColor("#222222"))
    p.drawText(0, height - 40, width, 36, 0x0084, unit_text(sheet.chart_unit, translate))
    p.end()
    return img


def _labels() -> dict[str, str]:
    return {
        "sheet": translate("Sheet", "Build sheet"),
        "subtitle": translate("Sheet", "Build sheet of {date} · Configurator {version}"),
        "errors": translate("Sheet", "{n} error(s): this build will not work as planned."),
        "fine": translate("Sheet", "No errors; {n} warning(s)."),
        "parts": translate("Sheet", "Parts"),
        "qty": translate("Sheet", "Qty"),
        "part": translate("Sheet", "Part"),
        "specs": translate("Sheet", "Key specifications"),
        "unit": translate("Sheet", "Unit price"),
        "subtotal": translate("Sheet", "Subtotal"),
        "used": translate("Sheet", "used"),
        "total": translate("Sheet", "Total"),
        "budget": translate("Sheet", "Budget"),
        "left": translate("Sheet", "left"),
        "over": translate("Sheet", "over budget"),
        "power": translate("Sheet", "Power and PCIe"),
        "peak": translate("Sheet", "Estimated peak draw"),
        "from_cpu": translate("Sheet", "from the CPU"),
        "from_chipset": translate("Sheet", "from the chipset"),
        "workload": translate("Sheet", "Workload, fit and estimates"),
        "chart": translate("Sheet", "Estimated throughput beside the guides' tiers (same workload)"),
        "measured": translate("Sheet", "Measured on this machine"),
        "findings": translate("Sheet", "Findings"),
        "error": translate("Sheet", "error"),
        "warning": translate("Sheet", "warning"),
        "info": translate("Sheet", "info"),
        "footer": translate("Sheet", "Prices are dated street-price estimates in CNY; specifications come from the "
                                     "vendors' spec pages; rule IDs and sections refer to the two guides (G, M), "
                                     "listed in docs/rules.md. Estimates say how they were made."),
    }


def sheet_html(sheet: Sheet) -> str:
    L = {k: esc(v) for k, v in _labels().items()}  # noqa: N806 - a table of labels
    b = sheet.build
    r = sheet.report
    title = esc(sheet.title) if sheet.title else L["sheet"]
    subtitle = fill(L["subtitle"], date=sheet.day.isoformat(), version=__version__)
    out = [f"<h1>{title}</h1>", f"<p style='color:#555'>{subtitle}</p>"]
    errors = len(r.errors)
    warnings = sum(f.severity == "warning" for f in r.findings)
    verdict = fill(L["errors"], n=str(errors)) if errors else fill(L["fine"], n=str(warnings))
    out.append(f"<p><b style='color:{'#c0392b' if errors else '#1e8449'}'>{verdict}</b></p>")

    out.append(f"<h2>{L['parts']}</h2>")
    out.append("<table width='100%' cellspacing='0' cellpadding='4' border='1' style='border-collapse:collapse'>")
    out.append("<tr>" + "".join(f"<th align='left'>{L[k]}</th>" for k in ("qty", "part", "specs", "unit",
                                                                             "subtotal")) + "</tr>")
    for row in sheet.rows:
        used = f" ({L['used']})" if row.used else ""
        out.append(f"<tr><td align='right'>{row.qty}</td><td>{esc(row.part.name)}{used}</td>"
                   f"<td><small>{_specs_html(row)}</small></td>"
                   f"<td align='right'>{unbroken(f'¥{row.part.price_cny:,}')}</td>"
                   f"<td align='right'>{unbroken(f'¥{row.subtotal:,}')}</td></tr>")
    out.append(f"<tr><td></td><td colspan='3'><b>{L['total']}</b></td>"
               f"<td align='right'><b>{unbroken(f'¥{r.total_cny:,}')}</b></td></tr>")
    if b.budget_cny is not None:
        left = b.budget_cny - r.total_cny
        word = L["left"] if left >= 0 else L["over"]
        out.append(f"<tr><td></td><td colspan='3'>{L['budget']}: {unbroken(f'¥{b.budget_cny:,.0f}')} — "
                   f"{unbroken(f'¥{abs(left):,.0f}')} {word}</td><td></td></tr>")
    out.append("</table>")
    if any(row.unverified for row in sheet.rows):
        out.append(f"<p><small style='color:#b9770e'>{esc(translate('Sheet', UNVERIFIED_NOTE))}</small></p>")

    out.append(f"<h2>{L['power']}</h2><ul>")
    peak = r.estimate("peak_power_w")
    if peak is not None:
        out.append(f"<li>{L['peak']}: {esc(peak.how.render(translate))}</li>")
    for n, seat in enumerate(sheet.seats, start=1):
        src = L["from_cpu"] if seat.slot.source == "cpu" else L["from_chipset"]
        link = unbroken(f"x{seat.lanes} Gen{seat.gen}")
        out.append(f"<li>GPU {n}: {esc(seat.gpu.name)} — {esc(seat.slot.name)}, {link}, {src}</li>")
    out.append("</ul>")

    if b.workload is not None:
        w = b.workload
        out.append(f"<h2>{L['workload']}</h2>")
        # what the workload is: model, task, runtime, precision, fine-tuning, optimizer, sharding or parallelism …
        cells = [f"{esc(row_label(key, WORKLOAD_LABELS))}: <b>{esc(_text(value))}</b>"
                 for key, value in workload_summary(w)]
        out.append("<table width='100%' cellspacing='0' cellpadding='2'>")
        for i in range(0, len(cells), 2):
            pair = cells[i:i + 2]
            out.append("<tr>" + "".join(f"<td width='50%'>{c}</td>" for c in pair) + "</tr>")
        out.append("</table><p></p>")
        out.append("<table width='100%' cellspacing='0' cellpadding='3' border='1' style='border-collapse:collapse'>")
        serving = serving_estimates(r.estimates) if w.serving else []
        if serving:  # the serving figures first, under the load they are at
            out.append(f"<tr><td colspan='3'><b>{esc(serving_heading(w))}</b></td></tr>")
        for e in serving + [e for e in r.estimates if e not in serving]:
            if e.key in CLUSTER_KEYS:
                continue  # their own section below
            out.append(_estimate_row(e))
        out.append("</table>")
        if sheet.chart:
            # a heading (if small), so that it stays on the page of its chart
            out.append(f"<h3 style='font-size:9.5pt'>{L['chart']}</h3>"
                       "<p><img src='chart://throughput' width='620'></p>")
    out += _cluster_section(r)
    if sheet.benchmark:
        out.append(f"<h2>{L['measured']}</h2><ul>")
        for workload, measured, unit in sheet.benchmark:
            out.append(f"<li>{esc(workload)}: {unbroken(f'{measured:,.1f} {unit_text(unit, translate)}')}</li>")
        out.append("</ul>")

    out.append(f"<h2>{L['findings']}</h2>")
    out.append("<table width='100%' cellspacing='0' cellpadding='3' border='1' style='border-collapse:collapse'>")
    for f in r.findings:
        guide = f"<br><small style='color:#666'>“{esc(f.guide)}”</small>" if f.guide else ""
        out.append(f"<tr><td width='12%' style='color:{SEVERITY_COLOURS[f.severity]}'>{L[f.severity]}</td>"
                   f"<td width='18%'>{esc(f.rule)} · {esc(source_text(f.source, translate))}</td>"
                   f"<td>{esc(f.message.render(translate))}{guide}</td></tr>")
    out.append("</table>")
    out.append(f"<p style='color:#666'><small>{L['footer']}</small></p>")
    return "".join(out)


def _estimate_row(e: Estimate) -> str:
    """One estimate: its name, its figure with the likely range, how it was made and how sure it is."""
    sure = esc(translate("estimates", CONFIDENCE_LABELS[e.confidence]))
    if e.value is None or e.key == "scaling_efficiency":
        shown = f"<b>{unbroken('—' if e.value is None else f'{e.value:.0%}')}</b>"
    else:
        number = f"{e.value:,.0f}" if e.key in WHOLE_NUMBERS or isinstance(e.value, int) else value_text(e.value)
        shown = _figure(number, unit_words(e.unit))
    span = range_text(e)
    if span is not None and e.key != "scaling_efficiency":
        shown += f"<br><small>{unbroken(span)}</small>"  # the cross-validated range
    return (f"<tr><td width='20%'>{esc(estimate_label(e.key))}</td><td width='20%' align='right'>{shown}</td>"
            f"<td><small>{esc(e.how.render(translate))} ({sure})</small></td></tr>")


def _cluster_section(r: Report) -> list[str]:
    """The build as one node of a cluster (CLU-1): its four figures and how each was made."""
    c = r.build.cluster
    shown = [e for e in r.estimates if e.key in CLUSTER_KEYS and e.value is not None]
    if c is None or not shown:
        return []
    title = fill(translate("Planner", "Cluster: {n} nodes over {network}"),
             n=c.nodes, network=INTERCONNECTS[c.interconnect].name)
    out = [f"<h2>{esc(title)}</h2>",
           "<table width='100%' cellspacing='0' cellpadding='3' border='1' style='border-collapse:collapse'>"]
    for e in shown:
        assert e.value is not None
        value = (f"{e.value:.0%}" if e.key == "cluster_scaling_efficiency" else f"¥{e.value:,.0f}" if e.unit == "CNY"
                 else f"{e.value:,} {unit_text(e.unit, translate)}")
        out.append(f"<tr><td width='20%'>{esc(translate('estimates', ESTIMATE_LABELS[e.key]))}</td>"
                   f"<td width='24%' align='right'><b>{unbroken(value)}</b></td>"
                   f"<td><small>{esc(e.how.render(translate))}</small></td></tr>")
    out.append("</table>")
    return out


# What QTextDocument.print_ does to a document that has no page size of its own: it lays out a copy
# with 2 cm margins (at 96 dpi, scaled to the printer) on pages of the printer's size.
_PRINT_MARGIN = int(2 / 2.54 * 96)


def keep_headings_with_next(doc: QTextDocument, printer: QPagedPaintDevice) -> int:
    """Start a new page before each heading that would otherwise end a page with what it heads (a
    table, a figure, a paragraph) on the next; returns how many headings moved. Qt's rich text has
    no "keep with next": this lays out a copy of ``doc`` as ``print_`` will, finds the first heading
    at the foot of a page, gives it a page break before, and lays out again from the start (what
    follows a moved heading moves with it). A heading counts as ending its page when the first line
    after it, and one line more, do not fit on the page (the margin for the small differences
    between this layout and the printer's)."""
    moved = 0
    while (number := _first_heading_left_alone(doc, printer)) is not None:
        breaking = QTextBlockFormat()
        breaking.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
        QTextCursor(doc.findBlockByNumber(number)).mergeBlockFormat(breaking)
        moved += 1
    return moved


def _first_heading_left_alone(doc: QTextDocument, printer: QPagedPaintDevice) -> int | None:
    probe = doc.clone()
    probe.documentLayout().setPaintDevice(printer)
    frame = probe.rootFrame().frameFormat()
    for side in (frame.setLeftMargin, frame.setRightMargin, frame.setTopMargin, frame.setBottomMargin):
        side(_PRINT_MARGIN)
    probe.rootFrame().setFrameFormat(frame)
    probe.setPageSize(QSizeF(printer.width(), printer.height()))
    page = probe.pageSize().height()
    block = probe.begin()
    while block.isValid():
        following = block.next()
        if (block.blockFormat().headingLevel() and following.isValid()
                and block.blockFormat().pageBreakPolicy() != QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore
                and _ends_its_page(block, following, page)):
            return block.blockNumber()
        block = following
    return None


def _ends_its_page(heading: QTextBlock, following: QTextBlock, page_height: float) -> bool:
    layout = heading.document().documentLayout()
    top = layout.blockBoundingRect(heading).top()
    lines = following.layout()
    line = lines.lineAt(0) if lines is not None and lines.lineCount() else None
    if line is None:
        return False
    first_line_bottom = layout.blockBoundingRect(following).top() + line.y() + line.height()
    return (first_line_bottom + line.height()) // page_height > top // page_height


def house_document(body: str, images: dict[str, QImage] | None = None) -> QTextDocument:
    """``body`` (HTML) as a document in the house style: fonts with CJK glyphs, heading sizes, table
    headers. ``images``: resources the HTML names by URL."""
    doc = QTextDocument()
    font = QFont()
    font.setFamilies(FONT_FAMILIES)
    font.setPointSizeF(9.5)
    doc.setDefaultFont(font)
    doc.setDefaultStyleSheet("h1 { font-size: 18pt; } h2 { font-size: 12.5pt; margin-top: 10px; } "
                             "th { background: #eef2f5; }")
    for url, image in (images or {}).items():
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(url), image)
    doc.setHtml(body)
    return doc


def house_page_layout() -> QPageLayout:
    """A4 portrait with 15 mm margins."""
    return QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                       QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter)


def write_html_pdf(body: str, path: Path, title: str, images: dict[str, QImage] | None = None) -> None:
    """Render ``body`` (HTML) to ``path`` as A4 in the house style, atomically (configurator.files), no heading
    left at the foot of a page. ``images``: resources the HTML names by URL. Raises OSError if it
    cannot be written."""
    refuse_link(path)  # before the work of rendering; write_atomic checks again
    doc = house_document(body, images)
    out = QBuffer()
    out.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(out)
    writer.setTitle(title)
    writer.setCreator(f"Configurator {__version__}")
    writer.setPageLayout(house_page_layout())
    writer.setResolution(300)
    keep_headings_with_next(doc, writer)
    doc.print_(writer)
    del writer
    out.close()
    write_atomic(path, bytes(out.data().data()))


def write_sheet_pdf(sheet: Sheet, path: Path) -> None:
    """Render the sheet to ``path`` (A4), atomically. Raises OSError if it cannot be written."""
    images = {"chart://throughput": chart_image(sheet)} if sheet.chart else None
    write_html_pdf(sheet_html(sheet), path, sheet.title or "Build sheet", images)
