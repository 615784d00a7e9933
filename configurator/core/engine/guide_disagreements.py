"""EST-1: where a guide's reference figure and the current published measurements on the same GPU
disagree by more than the model's error, an info finding with both and the likely reason."""

from __future__ import annotations

from collections.abc import Sequence

from configurator.core.engine.ranges import software_of
from configurator.core.estimate import fit as fitting
from configurator.core.estimate import throughput as tp
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.measurements import Measurement
from configurator.core.numbers import unit_message
from configurator.core.parts import Gpu
from configurator.core.rules.shared import Ctx

_DATA = {"real": Message("rules", QT_TRANSLATE_NOOP("rules", "real data")),
         "synthetic": Message("rules", QT_TRANSLATE_NOOP("rules", "synthetic data"))}
_UNSTATED = Message("rules", QT_TRANSLATE_NOOP("rules", "data not stated"))
_WHY_DATA = Message("rules", QT_TRANSLATE_NOOP(
    "rules", "the guide loads and augments real images on the CPU while the publication feeds synthetic data, "
             "and its software is older"))
_WHY_SOFTWARE = Message("rules", QT_TRANSLATE_NOOP(
    "rules", "different software (framework version, container, kernels)"))


def guide_disagreements(ctx: Ctx, gpus: list[Gpu], f: tp.Factors, rows: Sequence[Measurement]) -> None:
    """EST-1: the guides' reference figures against current published measurements on the same GPU."""
    w = ctx.workload
    if w is None or f.fit is None:
        return
    fe = f.fit.family(fitting.family_of(w))
    tolerance = fe.p90 if fe is not None else 0.35
    for gpu in {g.id: g for g in gpus}.values():
        published = fitting.matches(rows, gpu.id, w, any_batch=True)
        if not published:
            continue
        for guide in fitting.matches(rows, gpu.id, w, guide=True, any_batch=True):
            pub = max(published, key=lambda m: m.per_gpu_value)
            ratio = guide.per_gpu_value / pub.per_gpu_value
            if abs(ratio - 1) <= tolerance:
                continue
            ref = guide.source_ref.split(" ", 1)[0]
            section = guide.source_ref.split("·", 1)[1].strip().split(" ")[:2] if "·" in guide.source_ref else []
            why = _WHY_DATA if guide.data != pub.data and "real" in (guide.data, pub.data) else _WHY_SOFTWARE
            ctx.add("EST-1", "info", " ".join(section) or ref, QT_TRANSLATE_NOOP(
                "rules",
                "{ref}: the guide's {guide_value:,.0f} {unit} on {gpu} ({guide_sw}, {guide_data}) is {ratio:.2f}× the "
                "{published:,.0f} {unit} published at {url} ({pub_sw}, {pub_data}); they differ by more than the "
                "model's error ({err:.0%}). Likely reason: {why}."),
                {"ref": ref, "guide": guide.per_gpu_value, "published": pub.per_gpu_value, "unit": guide.unit,
                 "ratio": round(ratio, 3), "tolerance": round(tolerance, 3), "guide_id": guide.id,
                 "published_id": pub.id, "source_url": pub.source_url},
                ref=ref, guide_value=guide.per_gpu_value, unit=unit_message(guide.unit), gpu=gpu.name,
                guide_sw=software_of(guide),
                guide_data=_DATA.get(guide.data or "", _UNSTATED), ratio=ratio, published=pub.per_gpu_value,
                url=pub.source_url or pub.source_ref, pub_sw=software_of(pub),
                pub_data=_DATA.get(pub.data or "", _UNSTATED), err=tolerance, why=why)
