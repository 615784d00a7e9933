"""A training run's report as an A4 PDF, in the build sheet's look (the same writer, fonts and tables)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from configurator import __version__
from configurator.monitor.report import RunReport, duration_text
from configurator.ui.i18n import translate
from configurator.ui.pdf import esc, unbroken, write_html_pdf


def _n(v: float | None, digits: int = 0) -> str:
    return "—" if v is None else f"{v:,.{digits}f}"


def _when(t: float) -> str:
    return datetime.fromtimestamp(t).strftime("%Y-%m-%d %H:%M:%S")


def _labels() -> dict[str, str]:
    """The report's words, each a literal for lupdate."""
    return {
        ' (GPUs and the CPU packages, from RAPL)': translate("Report", ' (GPUs and the CPU packages, from RAPL)'),
        'Alerts during the run': translate("Report", 'Alerts during the run'),
        'CPU': translate("Report", 'CPU'),
        'Energy': translate("Report", 'Energy'),
        'Energy and cost': translate("Report", 'Energy and cost'),
        'For': translate("Report", 'For'),
        'From': translate("Report", 'From'),
        'GPU': translate("Report", 'GPU'),
        "note": translate("Report", "GPU-6 and the other alerts are replayed from the recorded values with the "
                                    "thresholds the live monitor uses; rule IDs are listed in docs/rules.md."),
        'GPUs': translate("Report", 'GPUs'),
        'Host': translate("Report", 'Host'),
        'Markers': translate("Report", 'Markers'),
        'Memory peak / capacity': translate("Report", 'Memory peak / capacity'),
        'NVML energy counter': translate("Report", 'NVML energy counter'),
        'None.': translate("Report", 'None.'),
        'Power median / max': translate("Report", 'Power median / max'),
        'Rule': translate("Report", 'Rule'),
        "no_energy": translate("Report", "The recording has neither an energy counter nor power readings."),
        'Throttled': translate("Report", 'Throttled'),
        'Training': translate("Report", 'Training'),
        'Training process and DataLoader workers': translate("Report", 'Training process and DataLoader workers'),
        'Training run report': translate("Report", 'Training run report'),
        'Utilisation median / p95': translate("Report", 'Utilisation median / p95'),
        'What it said': translate("Report", 'What it said'),
        "saturated": translate("Report", "Time with every DataLoader worker at a full core (the training process, "
                                         "without workers)"),
        'of the run': translate("Report", 'of the run'),
        'median': translate("Report", 'median'),
        'of a core': translate("Report", 'of a core'),
        'power × time': translate("Report", 'power × time'),
        'samples': translate("Report", 'samples'),
        'workers': translate("Report", 'workers'),
    }


def report_html(r: RunReport) -> str:
    words = _labels()

    def word(text: str) -> str:
        return esc(words[text])

    def render(m: object) -> str:
        return esc(m.render(translate) if hasattr(m, "render") else m)  # a Message, translated

    out = [f"<h1>{word('Training run report')}</h1>",
           f"<p>{esc(Path(r.path).name)} · {esc(_when(r.start))} – {esc(_when(r.end))} · "
           f"{unbroken(duration_text(r.duration_s, translate))} · {r.samples} {word('samples')} · "
           f"Configurator {esc(__version__)}</p>",
           f"<p><b>[{esc(r.rule or '—')}]</b> {render(r.verdict)}</p>",
           f"<h2>{word('GPUs')}</h2>",
           "<table border='1' cellspacing='0' cellpadding='4' width='100%'><tr>"
           + "".join(f"<th>{word(h)}</th>" for h in (
               "GPU", "Utilisation median / p95", "Memory peak / capacity", "Power median / max", "Energy",
               "Throttled", "Training")) + "</tr>"]
    for g in r.gpus:
        energy = "—" if g.energy_j is None else f"{g.energy_j / 3.6e6:.3f} kWh"
        method = {"nvml-counter": word("NVML energy counter"), "integrated-power": word("power × time")}.get(
            g.energy_method or "", "")
        reasons = ", ".join(esc(translate("report", x)) for x in g.throttle_reasons)
        out.append(
            f"<tr><td>{esc(g.id)}" + (f"<br/><small>{esc(g.name)}</small>" if g.name else "") + "</td><td>"
            f"{unbroken(f'{_n(g.util_median)} % / {_n(g.util_p95)} %')}</td>"
            f"<td>{unbroken(f'{_n(g.memory_peak_gib, 1)} / {_n(g.memory_capacity_gib, 1)} GiB')}</td>"
            f"<td>{unbroken(f'{_n(g.power_median_w)} / {_n(g.power_max_w)} W')}</td>"
            f"<td>{unbroken(energy)}<br/><small>{method}</small></td>"
            f"<td>{unbroken(f'{g.throttled_s:.0f} s')}<br/><small>{reasons}</small></td>"
            f"<td>{unbroken(duration_text(g.busy_s, translate))}</td></tr>")
    out.append("</table>")
    h = r.host
    out.append(f"<h2>{word('Host')}</h2><ul>"
               f"<li>{word('CPU')}: {unbroken(_n(h.get('cpu_median')) + ' %')} ({word('median')}), "
               f"{unbroken(_n(h.get('cpu_p95')) + ' %')} (p95)</li>"
               f"<li>iowait: {unbroken(_n(h.get('iowait_median'), 1) + ' %')} ({word('median')}), "
               f"{unbroken(_n(h.get('iowait_p95'), 1) + ' %')} (p95)</li>"
               f"<li>{word('Training process and DataLoader workers')}: "
               f"{unbroken(_n(h.get('train_cpu_median')) + ' %')} {word('of a core')} ({word('median')}), "
               f"{word('workers')}: {_n(h.get('workers_max'))}</li>")
    share = h.get("workers_saturated_share")
    if share is not None:
        out.append(f"<li>{word('saturated')}: {unbroken(f'{share * 100:.0f} %')} {word('of the run')}</li>")
    out.append("</ul>")
    if r.markers:
        out.append(f"<h2>{word('Markers')}</h2><ul>"
                   + "".join(f"<li>{esc(_when(t))} · {esc(label)}</li>" for t, label in r.markers) + "</ul>")
    out.append(f"<h2>{word('Alerts during the run')}</h2>")
    if r.alerts:
        out.append("<table border='1' cellspacing='0' cellpadding='4' width='100%'><tr>"
                   + "".join(f"<th>{word(x)}</th>" for x in ("Rule", "From", "For", "What it said")) + "</tr>")
        for a in r.alerts:
            out.append(f"<tr><td>{esc(a.rule)}</td><td>{esc(_when(a.since))}</td>"
                       f"<td>{unbroken(f'{a.seconds:.0f} s')}</td><td>{render(a.message)}</td></tr>")
        out.append("</table>")
    else:
        out.append(f"<p>{word('None.')}</p>")
    out.append(f"<h2>{word('Energy and cost')}</h2>")
    if r.energy_kwh is None:
        out.append(f"<p>{word('no_energy')}</p>")
    else:
        cpu = "" if r.cpu_energy_j is None else word(" (GPUs and the CPU packages, from RAPL)")
        cost = r.cost_cny or 0.0
        out.append(f"<p>{unbroken(f'{r.energy_kwh:.3f} kWh')}{cpu} × {unbroken(f'¥{r.tariff_cny_per_kwh:g}/kWh')} = "
                   f"<b>{unbroken(f'¥{cost:,.2f}')}</b></p>")
    note = word("note")
    out.append(f"<p><small>{note}</small></p>")
    return "\n".join(out)


def write_report_pdf(r: RunReport, path: Path) -> None:
    write_html_pdf(report_html(r), path, translate("Report", "Training run report"))
