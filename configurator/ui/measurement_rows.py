"""The Parts tab's table of a GPU's published measurements (from the database's measurements table)."""

from __future__ import annotations

import html
from collections.abc import Sequence

from configurator.core.measurements import Measurement
from configurator.core.numbers import unit_text
from configurator.ui.i18n import translate

SHOWN = 24


def measurements_html(rows: Sequence[Measurement]) -> str:
    """A heading and one line per measurement: workload, GPUs, value, software, source (a link)."""
    if not rows:
        return ""
    heads = (translate("PartsBrowser", "Workload"), translate("PartsBrowser", "GPUs"),
             translate("PartsBrowser", "Value"), translate("PartsBrowser", "Software"),
             translate("PartsBrowser", "Source"))
    out = [f"<h3>{html.escape(translate('PartsBrowser', 'Published measurements'))}</h3>"
           "<table cellspacing='0' cellpadding='2'><tr>"
           + "".join(f"<th align='left' style='padding-right:10px'>{html.escape(h)}</th>" for h in heads) + "</tr>"]
    for m in rows[:SHOWN]:
        workload = " ".join(x for x in (m.model, m.task, m.precision or "",
                                        f"bs {m.batch_size}" if m.batch_size else "") if x)
        software = m.runtime or " ".join(x for x in (m.framework, m.framework_version) if x) or "—"
        if len(software) > 48:  # the whole runtime is in `measurements list --json`
            software = software[:47].rsplit(" ", 1)[0] + "…"
        value = f"{m.value:,g} {unit_text(m.unit, translate)}"
        where = (f"<a href='{html.escape(m.source_url, quote=True)}'>{html.escape(m.source_date or '')}</a>"
                 if m.source_url else html.escape(m.source_ref.split(" ", 1)[0]))
        out.append(f"<tr><td style='padding-right:10px'>{html.escape(workload)}</td><td>×{m.gpu_count}</td>"
                   f"<td align='right' style='padding-right:10px'><b>{html.escape(value)}</b></td>"
                   f"<td style='padding-right:10px'>{html.escape(software)}</td><td>{where}</td></tr>")
    out.append("</table>")
    if len(rows) > SHOWN:
        out.append("<p>" + html.escape(translate(
            "PartsBrowser", "{n} more: configurator measurements list --gpu {id}").replace(
            "{n}", str(len(rows) - SHOWN)).replace("{id}", rows[0].gpu)) + "</p>")
    return "".join(out)
