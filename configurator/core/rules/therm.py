"""Cooling beyond the guides, from vendor specs (THERM-1, THERM-2): passively cooled cards need a server
chassis's forced airflow; open-air cards need room between them and a case that carries their heat out."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.pcie import Placement, Seat
from configurator.core.rules.shared import Ctx, mid_tower

# THERM-2: open-air cards a mid tower takes. Each blows its board power into the case (an RTX 5080:
# 360 W); two, with a free slot between, is what a mid tower's two or three front fans carry out.
MID_TOWER_OPEN_AIR = 2


def stacked(placement: Placement) -> list[tuple[Seat, Seat]]:
    """THERM-2: pairs of cards where the lower one sits in the first slot position below what the upper
    one covers, so nothing separates the upper card's fans from the lower card's backplate."""
    below = {s.slot.position: s for s in placement.seats}
    return [(s, below[s.covers[-1] + 1]) for s in sorted(placement.seats, key=lambda s: s.slot.position)
            if s.covers[-1] + 1 in below]


def cooling(ctx: Ctx) -> None:
    r = ctx.r
    case = r.case
    for g in {g.id: g for g in r.gpu_list if g.form_factor == "pcie" and g.cooling == "passive"}.values():
        numbers = {"part": g.id, "cooling": g.cooling, "case": case.id if case else None,
                   "server_airflow": case.server_airflow if case else None}
        if case is None:
            ctx.add("THERM-1", "info", "vendor specs",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "{gpu} is passively cooled (a heatsink, no fan): it needs a server chassis that forces "
                        "air front to back through it."), numbers, gpu=g.name)
        elif not case.server_airflow:
            ctx.add("THERM-1", "error", "vendor specs",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "{gpu} is passively cooled (a heatsink, no fan) and relies on a server chassis's forced "
                        "front-to-back airflow; {case} has none, so the card overheats and throttles or shuts "
                        "down under load. Use a server chassis, or an actively cooled card."),
                    numbers, gpu=g.name, case=case.name)
    pl = ctx.placement
    if pl is None:
        return
    order = {id(s): n for n, s in enumerate(sorted(pl.seats, key=lambda s: s.slot.position), start=1)}
    # A rack chassis's fan wall forces air through stacked cards; a desktop case does not.
    forced = case is not None and case.server_airflow
    open_air = [s for s in pl.seats if s.gpu.cooling == "open_air"]
    if case is not None and not forced and len(open_air) > MID_TOWER_OPEN_AIR and mid_tower(case.form_factor):
        heat = sum(s.gpu.board_power_w for s in open_air)
        ctx.add("THERM-2", "error", "vendor specs",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "{n} open-air cards in a mid tower ({case}): they blow about {watts:,} W into the case, more "
                    "than its fans move out, and the cards throttle. At most two open-air cards with a free slot "
                    "between them fit a mid tower; for more, use a full tower or rack chassis, or blower or "
                    "water-cooled cards."),
                {"open_air_cards": len(open_air), "limit": MID_TOWER_OPEN_AIR, "heat_w": heat,
                 "case_form_factor": case.form_factor}, n=len(open_air), case=case.name, watts=heat)
    for upper, lower in stacked(pl):
        if upper.gpu.cooling != "open_air" or forced:
            continue
        ctx.add("THERM-2", "error", "vendor specs",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "GPU {n} ({gpu}, open-air fans) in {slot} sits directly above GPU {m} in {slot2} with no free "
                    "slot between: its fans draw air from a gap of a few millimetres and it throttles under "
                    "sustained load. Leave a slot free between them (a board with wider slot spacing), or use "
                    "blower-style or water-cooled cards, which stack, or a rack chassis with a fan wall."),
                {"upper_slot": upper.slot.name, "lower_slot": lower.slot.name, "gap_slots": 0,
                 "upper_cooling": upper.gpu.cooling},
                n=order[id(upper)], gpu=upper.gpu.name, slot=upper.slot.name, m=order[id(lower)],
                slot2=lower.slot.name)
