"""Power (PWR-1..5): the guide's and the vendor's PSU figure, the estimated peak against the supply, the
power connectors, throughput per watt, several supplies and the load near the rating."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from configurator.core.estimate.power import is_atx3
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.numbers import unit_message
from configurator.core.parts import Gpu, Psu
from configurator.core.rules.shared import Ctx, training_draw

GUIDE_3090_PSU_W = 850  # PWR-1, G 六.3: "RTX 3090建议850W+"
NEAR_LIMIT_PCT = 90  # PWR-5: above 90 % of the rating at the estimated peak is a warning
# PWR-5: the sustained draw (what a training run holds for hours) at most 80 % of the rating: the common
# sizing rule for continuous loads (a breaker or supply run continuously at no more than 80 % of its
# rating, as the US National Electrical Code's continuous-load rule), which keeps the supply in its
# efficient, cool range; transients are judged by PWR-2's peak with its ATX-version headroom.
SUSTAINED_PCT = 80


def combined_psu(psus: tuple[Psu, ...], watts: int) -> Psu:
    """The build's supplies as one (PWR-5): ratings as :attr:`Resolved.psu_watts` adds them, cables of
    separate supplies added up; redundant modules share one set of cables (the chassis's power
    distributor), counted once."""
    plain = [p for p in psus if not p.redundant]
    modules = [p for p in psus if p.redundant]

    def count(name: str) -> int:
        return int(sum(getattr(p, name) for p in plain) + max((getattr(p, name) for p in modules), default=0))

    return dataclasses.replace(psus[0], watts=watts, pcie_8pin=count("pcie_8pin"),
                               connector_12v2x6=count("connector_12v2x6"), eps_8pin=count("eps_8pin"))


def power(ctx: Ctx) -> None:
    r = ctx.r
    psu = combined_psu(r.psus, r.psu_watts) if r.psus else None
    p = ctx.power
    if psu is None:
        if r.gpus or r.cpus:
            ctx.add("PWR-2", "info", "G 六.3",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "No power supply chosen; the build needs at least {peak} W ({formula})."),
                    {"peak_w": p.peak_w}, peak=p.peak_w, formula=p.formula)
        return
    numbers = {"peak_w": p.peak_w, "sustained_w": p.sustained_w, "psu_w": psu.watts, "gpu_w": p.gpu_w,
               "cpu_w": p.cpu_w, "platform_w": p.platform_w, "transient_w": p.transient_w}
    if p.peak_w > psu.watts:
        ctx.add("PWR-2", "error", "G 六.3",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "The {psu} W power supply is below the estimated peak draw of {peak} W: {formula}."),
                numbers, psu=psu.watts, peak=p.peak_w, formula=p.formula)
    else:
        ctx.add("PWR-2", "info", "G 六.3",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Estimated peak draw {peak} W of the {psu} W supply ({load:.0%}): {formula}."),
                numbers, psu=psu.watts, peak=p.peak_w, load=p.peak_w / psu.watts, formula=p.formula)
    _several(ctx, psu.watts)
    # PWR-1: the guide's and the vendor's recommended PSU.
    gpus = r.gpu_list
    if gpus:
        vendor = max((g.recommended_psu_w or 0) for g in gpus)
        if vendor:
            extra = sum(g.board_power_w for g in gpus) - max(g.board_power_w for g in gpus)
            vendor_total = vendor + extra  # the vendor's figure is for one card; add the others' board power
            if psu.watts < vendor_total and len(gpus) == 1:
                ctx.add("PWR-1", "warning", "G 六.3",
                        QT_TRANSLATE_NOOP(
                            "rules",
                            "The vendor recommends a {rec} W supply for this GPU; this one has {psu} W."),
                        {"vendor_psu_w": vendor_total, "psu_w": psu.watts}, rec=vendor_total, psu=psu.watts)
            elif psu.watts < vendor_total:
                ctx.add("PWR-1", "warning", "G 六.3",
                        QT_TRANSLATE_NOOP(
                            "rules",
                            "The vendor recommends a {rec} W supply for this GPU setup ({base} W for one card + "
                            "{extra} W for the others); this one has {psu} W."),
                        {"vendor_psu_w": vendor_total, "psu_w": psu.watts}, rec=vendor_total, base=vendor,
                        extra=extra, psu=psu.watts)
        if any(g.id == "nvidia-rtx-3090" for g in gpus):
            guide_total = GUIDE_3090_PSU_W + (len(gpus) - 1) * 350
            if psu.watts < guide_total:
                # one PWR-1: the guide's figure replaces the vendor's finding, and names it
                vendor_finding = next((f for f in ctx.findings if f.rule == "PWR-1"), None)
                if vendor_finding is not None:
                    ctx.findings.remove(vendor_finding)
                    ctx.add("PWR-1", "warning", "G 六.3",
                            QT_TRANSLATE_NOOP(
                                "rules",
                                "The guide asks for {guide_w} W or more with an RTX 3090 and the vendor recommends "
                                "{rec} W for this GPU setup; this supply has {psu} W."),
                            {**vendor_finding.numbers, "guide_psu_w": guide_total, "psu_w": psu.watts},
                            guide="检查电源功率是否充足（RTX 3090建议850W+）", guide_w=guide_total,
                            rec=vendor_finding.numbers["vendor_psu_w"], psu=psu.watts)
                else:
                    ctx.add("PWR-1", "warning", "G 六.3",
                            QT_TRANSLATE_NOOP(
                                "rules",
                                "The guide asks for {guide_w} W or more with an RTX 3090 (NVIDIA's own figure is 750 W "
                                "for one card); this supply has {psu} W."),
                            {"guide_psu_w": guide_total, "psu_w": psu.watts},
                            guide="检查电源功率是否充足（RTX 3090建议850W+）", guide_w=guide_total, psu=psu.watts)
    _connectors(ctx, psu)


def _several(ctx: Ctx, watts: int) -> None:
    """PWR-5: several supplies add up (redundant modules keep one spare); near the rating is a warning."""
    r = ctx.r
    p = ctx.power
    numbers = {"peak_w": p.peak_w, "psu_w": watts, "supplies": len(r.psus), "atx3": p.atx3,
               "limit_pct": NEAR_LIMIT_PCT}
    if len(r.psus) > 1:
        template = QT_TRANSLATE_NOOP(
            "rules",
            "{n} redundant supply modules: {watts} W usable, one module's worth kept spare (N+1), so the machine "
            "keeps running when one fails.") if any(q.redundant for q in r.psus) else QT_TRANSLATE_NOOP(
            "rules",
            "{n} power supplies add up to {watts} W. Give each GPU all its cables from one supply, and have them "
            "start together (a multi-PSU adapter, or a board or chassis made for several).")
        ctx.add("PWR-5", "info", "vendor specs", template, numbers, n=len(r.psus), watts=watts)
        if not p.atx3 and any(is_atx3(q.atx_version) for q in r.psus):
            ctx.add("PWR-5", "info", "ATX 3.x",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "Not every supply is ATX 3.x, so the sizing keeps the older 30 % transient headroom."),
                    numbers)
    modules = [q for q in r.psus if q.redundant]
    if len(modules) == 1:
        ctx.add("PWR-5", "warning", "vendor specs",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "{psu} is one module of a redundant (N+1) set: alone it has no spare, and the machine stops when "
                    "it fails. Fit at least two; N+1 modules deliver N modules' watts."),
                {**numbers, "modules": 1}, psu=modules[0].name)
    # the shares to a tenth of a percent: 90.5 % must not read "90%" beside "above 90 %"
    if watts >= p.peak_w and p.sustained_w * 100 > watts * SUSTAINED_PCT:
        ctx.add("PWR-5", "warning", "vendor specs",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "The sustained draw of {sustained} W is {load:.1%} of the {watts} W the supplies deliver: above "
                    "80 % for hours runs the supply hot, loud and short-lived. {need} W or more keeps it under 80 %."),
                {**numbers, "sustained_w": p.sustained_w, "sustained_limit_pct": SUSTAINED_PCT},
                sustained=p.sustained_w, load=p.sustained_w / watts, watts=watts,
                need=-(-p.sustained_w * 100 // SUSTAINED_PCT))
    if watts >= p.peak_w and p.peak_w * 100 > watts * NEAR_LIMIT_PCT:
        ctx.add("PWR-5", "warning", "vendor specs",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "The estimated peak of {peak} W is {load:.1%} of the {watts} W rating: above 90 % leaves no "
                    "margin for the estimate's error, ageing and a hot room. A supply of {need} W or more stays "
                    "under 90 %."),
                numbers, peak=p.peak_w, load=p.peak_w / watts, watts=watts,
                need=-(-p.peak_w * 100 // NEAR_LIMIT_PCT))


@dataclass(frozen=True)
class Connectors:
    need_8: int
    need_16: int
    need_eps: int
    short_16: int  # 16-pin inputs without a native cable
    adapter_8: int  # 8-pin inputs the bundled adapters then need
    psu: Psu
    eps_adapted: tuple[Gpu, ...] = ()  # workstation cards whose EPS input takes their bundled 8-pin adapter
    adapter_eps_8: int = 0  # PCIe 8-pin inputs those adapters need

    @property
    def gpu_error(self) -> bool:
        spare_8 = self.psu.pcie_8pin - self.need_8 - self.adapter_eps_8
        return spare_8 < 0 or (self.short_16 > 0 and spare_8 < self.adapter_8)

    @property
    def eps_error(self) -> bool:
        return self.need_eps - len(self.eps_adapted) > self.psu.eps_8pin

    @property
    def ok(self) -> bool:
        return not (self.gpu_error or self.eps_error)


def connectors(gpus: list[Gpu], cpu_count: int, psu: Psu) -> Connectors:
    """PWR-3: the cards' 8-pin and 16-pin inputs and the EPS inputs against the supply's cables.
    A 16-pin input without a native cable can be fed by the card's bundled 8-pin adapter; so can the EPS
    input of a workstation card that ships with a PCIe-to-EPS adapter (``power_adapter_8pin`` on a card
    with an EPS input), where the supply's EPS cables are taken by the CPUs."""
    need_16 = sum(g.power_12v2x6 for g in gpus)
    short_16 = max(need_16 - psu.connector_12v2x6, 0)
    adapter_8 = 0
    if short_16:
        per = sorted(g.power_adapter_8pin or 4 for g in gpus if g.power_12v2x6)
        adapter_8 = sum(per[:short_16])
    need_eps = sum(g.power_eps8 for g in gpus) + cpu_count
    short_eps = max(need_eps - psu.eps_8pin, 0)
    adaptable = sorted((g for g in gpus if g.power_eps8 and g.power_adapter_8pin and not g.power_12v2x6),
                       key=lambda g: (g.power_adapter_8pin or 0, g.id))
    adapted = tuple(adaptable[:short_eps])
    return Connectors(sum(g.power_8pin for g in gpus), need_16, need_eps, short_16, adapter_8, psu, adapted,
                      sum(g.power_adapter_8pin or 0 for g in adapted))


def _connectors(ctx: Ctx, psu: Psu) -> None:
    r = ctx.r
    c = connectors(r.gpu_list, r.cpu_count, psu)
    numbers = {"gpu_8pin": c.need_8, "gpu_16pin": c.need_16, "psu_8pin": psu.pcie_8pin,
               "psu_16pin": psu.connector_12v2x6, "adapter_8pin": c.adapter_8, "eps_needed": c.need_eps,
               "psu_eps": psu.eps_8pin, "eps_adapted": len(c.eps_adapted), "eps_adapter_8pin": c.adapter_eps_8}
    cables = [(p, f) for p in ctx.r.psus for f in ("pcie_8pin", "connector_12v2x6")]
    if c.gpu_error:
        ctx.add("PWR-3", "error", "G 六.3",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Not enough GPU power connectors: the cards need {n8} × 8-pin and {n16} × 16-pin "
                    "(12VHPWR/12V-2x6){eps}; the supply has {p8} × 8-pin and {p16} × 16-pin."),
                numbers, rests_on=cables, n8=c.need_8, n16=c.need_16, p8=psu.pcie_8pin, p16=psu.connector_12v2x6,
                eps=Message("rules", QT_TRANSLATE_NOOP("rules", ", and {a} × 8-pin for the EPS adapters"),
                            {"a": c.adapter_eps_8}) if c.adapter_eps_8 else "")
    elif c.short_16:
        ctx.add("PWR-3", "warning", "G 六.3",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "{n} 16-pin input(s) must use the cards' bundled adapters ({a} × 8-pin): it works, but a "
                    "native 12V-2x6 cable is safer."),
                numbers, rests_on=cables, n=c.short_16, a=c.adapter_8)
    if c.eps_adapted and not c.gpu_error and not c.eps_error:
        names = ", ".join(sorted({g.name for g in c.eps_adapted}))
        ctx.add("PWR-3", "warning", "vendor specs",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "{n} × {gpu}: the card's power input is an 8-pin CPU (EPS) socket and the supply's EPS cables "
                    "go to the CPUs, so it takes the adapter shipped with the card ({per} × PCIe 8-pin → 8-pin "
                    "EPS). Use that adapter, never a CPU cable from another supply; check it is in the box."),
                numbers, rests_on=[(g, "power_adapter_8pin") for g in c.eps_adapted], n=len(c.eps_adapted),
                gpu=names, per=c.eps_adapted[0].power_adapter_8pin)
    if c.eps_error:
        ctx.add("PWR-3", "error", "G 六.3",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Not enough 8-pin EPS connectors: {need} needed (CPUs and data-centre GPUs), the supply has "
                    "{have}."),
                numbers, rests_on=[(p, "eps_8pin") for p in ctx.r.psus], need=c.need_eps - len(c.eps_adapted),
                have=psu.eps_8pin)


# Below this many units per watt (a diffusion model's img/s) the figure is said per kilowatt: "45.4 img/s per
# kilowatt", not "4.54e-05 img/s per watt"
_PER_KW_BELOW = 0.01


def per_watt(ctx: Ctx, throughput: float | None, unit: str) -> None:
    """PWR-4: show throughput per watt (the guide's 1660 Super vs 3090 point)."""
    # the average draw under load, as BUD-3 bills it and the Draw while training / serving estimate shows it
    # (GPUs at board power, CPU at TDP, the platform), or as measured on this machine; not the PSU's sizing
    # figure (CPU at maximum power)
    watts, measured = training_draw(ctx)
    if throughput is None or watts <= 0:
        return
    per_w = throughput / watts
    kw = per_w < _PER_KW_BELOW
    numbers: dict[str, object] = {"per_watt": float(f"{per_w:.3g}") if kw else round(per_w, 3), "sustained_w": watts}
    if ctx.measured is not None:
        numbers.update(measured_w=round(ctx.measured.mean_w), draw_measured=True)
        text = (QT_TRANSLATE_NOOP("rules", "{per_w:.3g} {unit} per kilowatt at {watts} W measured draw.{measured}")
                if kw else
                QT_TRANSLATE_NOOP("rules", "{per_w:.3g} {unit} per watt at {watts} W measured draw.{measured}"))
    else:
        text = (QT_TRANSLATE_NOOP("rules", "{per_w:.3g} {unit} per kilowatt at {watts} W average draw.") if kw
                else QT_TRANSLATE_NOOP("rules", "{per_w:.3g} {unit} per watt at {watts} W average draw."))
    ctx.add("PWR-4", "info", "G 二.1", text, numbers,
            guide="1660 Super的吞吐量约为RTX 3090的37%，但功耗仅为后者的1/3",
            per_w=per_w * 1000 if kw else per_w, unit=unit_message(unit), watts=watts, measured=measured or "")
