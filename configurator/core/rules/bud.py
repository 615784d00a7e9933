"""Budget and cost (BUD-1..4): the total against the budget, the guide's basic box, months until the build
pays for itself against renting, a used GPU's memory test."""

from __future__ import annotations

from configurator.core.cloud import price_for, price_label
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.rules.shared import Ctx, training_draw

BASIC_BOX_CNY = 5000  # BUD-2, M 结语


def total_cny(ctx: Ctx) -> int:
    return sum(part.price_cny * bp.qty for part, bp in ctx.r.items)


def budget(ctx: Ctx) -> None:
    total = total_cny(ctx)
    b = ctx.r.build.budget_cny
    if b is None:
        ctx.add("BUD-1", "info", "G 五.3, M 结语", QT_TRANSLATE_NOOP("rules", "Total ¥{total:,}; no budget set."),
                {"total_cny": total}, total=total)
    elif total > b:
        ctx.add("BUD-1", "error", "G 五.3, M 结语", QT_TRANSLATE_NOOP(
            "rules",
            "Over budget: ¥{total:,} against ¥{budget:,.0f}, ¥{over:,.0f} too much."),
                {"total_cny": total, "budget_cny": b, "over_cny": total - b}, total=total, budget=b, over=total - b)
    else:
        ctx.add("BUD-1", "info", "G 五.3, M 结语", QT_TRANSLATE_NOOP(
            "rules",
            "Within budget: ¥{total:,} of ¥{budget:,.0f}, ¥{left:,.0f} left."),
                {"total_cny": total, "budget_cny": b, "left_cny": b - total}, total=total, budget=b, left=b - total)
    ctx.add("BUD-2", "info", "M 结语",
            QT_TRANSLATE_NOOP(
                "rules",
                "The guide's basic local AI box fits in ¥{ref:,}; this build is ¥{total:,} ({verdict})."),
            {"reference_cny": BASIC_BOX_CNY, "total_cny": total},
            guide="开发者可在预算¥5000内搭建满足基础需求的本地AI环境",
            ref=BASIC_BOX_CNY, total=total,
            verdict=Message("rules", QT_TRANSLATE_NOOP("rules", "within it") if total <= BASIC_BOX_CNY
                            else QT_TRANSLATE_NOOP("rules", "above it")))
    _break_even(ctx, total)
    for part, bp in ctx.r.items:
        if bp.used and part.category == "gpu":
            ctx.add("BUD-4", "warning", "M 四.2",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "{name} is bought used: test its VRAM before paying (the Benchmark tab's VRAM pattern "
                        "test), and check for ex-mining wear (fans, thermal pads)."),
                    {"part": part.id}, guide="选购矿潮后的RTX 30系显卡（需测试显存稳定性）", name=part.name)


def _rent(ctx: Ctx, power_cny: float) -> tuple[Message | str, dict[str, object]]:
    """BUD-3 against renting the same number of comparable GPUs at the cloud table's hourly prices."""
    o = ctx.r.build.options
    gpus = ctx.counted or ctx.r.gpu_list
    if not gpus:
        return "", {}
    rows = [price_for(g.id, ctx.cloud) for g in gpus]
    if any(p is None for p in rows):
        missing = sorted({g.name for g, p in zip(gpus, rows, strict=True) if p is None})
        return Message("rules", QT_TRANSLATE_NOOP(
            "rules", "The cloud price table has no comparable rental for {names}."), {"names": ", ".join(missing)}), {}
    prices = [p for p in rows if p is not None]
    month = sum(p.cny_per_gpu_hour for p in prices) * o.hours_per_day * 30
    used = {p.gpu_class: p for p in prices}
    rented = [Message("rules", QT_TRANSLATE_NOOP("rules", "{label}, ¥{price:g}/GPU-h, {date}"),
                      {"label": price_label(p), "price": p.cny_per_gpu_hour, "date": p.date}) for p in used.values()]
    basis = rented[0]
    for m in rented[1:]:
        basis = Message("rules", QT_TRANSLATE_NOOP("rules", "{first}; {next}"), {"first": basis, "next": m})
    numbers: dict[str, object] = {
        "rent_cny_per_month": round(month, 1),
        "rent_prices": [{"gpu_class": p.gpu_class, "cny_per_gpu_hour": p.cny_per_gpu_hour, "provider": p.provider,
                         "date": p.date, "source": p.source, "user_edited": p.user_edited} for p in used.values()]}
    saving = month - power_cny
    if saving <= 0:
        numbers["rent_months"] = None
        return Message("rules", QT_TRANSLATE_NOOP(
            "rules", "Renting {n} comparable GPU(s) ({basis}) at {hours:g} h/day costs ¥{rent:,.0f}/month, less "
                     "than the electricity: against that it never pays for itself."),
            {"n": len(gpus), "basis": basis, "hours": o.hours_per_day, "rent": month}), numbers
    months = total_cny(ctx) / saving
    numbers["rent_months"] = round(months, 1)
    return Message("rules", QT_TRANSLATE_NOOP(
        "rules", "Against renting {n} comparable GPU(s) ({basis}) at {hours:g} h/day, ¥{rent:,.0f}/month: "
                 "{months:.1f} months."),
        {"n": len(gpus), "basis": basis, "hours": o.hours_per_day, "rent": month, "months": months}), numbers


def _break_even(ctx: Ctx, total: int) -> None:
    """BUD-3: the guide's flat cloud rate (¥8,000/month, AWS p3.2xlarge, M 四.1), and the rent of
    comparable GPUs from the dated cloud price table (db/cloud_prices.toml, user-editable)."""
    if total <= 0:  # nothing to buy yet
        return
    o = ctx.r.build.options
    draw_w, measured = training_draw(ctx)
    kwh_month = draw_w / 1000 * o.hours_per_day * 30
    power_cny = kwh_month * o.electricity_cny_per_kwh
    saving = o.cloud_cny_per_month - power_cny
    rent, rent_numbers = _rent(ctx, power_cny)
    numbers = {"total_cny": total, "cloud_cny_per_month": o.cloud_cny_per_month, "draw_w": draw_w,
               "hours_per_day": o.hours_per_day, "electricity_cny_per_kwh": o.electricity_cny_per_kwh,
               "electricity_cny_per_month": round(power_cny, 1), "draw_measured": ctx.measured is not None,
               **rent_numbers}
    if saving <= 0:
        ctx.add("BUD-3", "info", "M 四.1",
                QT_TRANSLATE_NOOP("rules", "Renting at ¥{cloud:,.0f}/month costs less than this build's electricity "
                           "(¥{power:,.0f}/month): it never pays for itself. {rent}{measured}"),
                {**numbers, "months": None}, cloud=o.cloud_cny_per_month, power=power_cny, rent=rent,
                measured=measured)
        return
    months = total / saving
    ctx.add("BUD-3", "info", "M 四.1",
            QT_TRANSLATE_NOOP(
                "rules",
                "Pays for itself in {months:.1f} months against renting at ¥{cloud:,.0f}/month (the guide's figure): "
                "¥{total:,} ÷ (¥{cloud:,.0f} − ¥{power:,.0f} electricity at {draw} W × {hours:g} h/day × "
                "¥{tariff:g}/kWh). {rent}{measured}"),
            {**numbers, "months": round(months, 1)},
            guide="本地部署RTX 3060（约¥2500）的年化成本低于AWS p3.2xlarge（¥8000/月）",
            months=months, cloud=o.cloud_cny_per_month, total=total, power=power_cny, draw=draw_w,
            hours=o.hours_per_day, tariff=o.electricity_cny_per_kwh, rent=rent, measured=measured)
