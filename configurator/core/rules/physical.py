"""Cooling (THERM-1, THERM-2) and physical fit (FIT-4 power supply, FIT-5 board size, FIT-6 CPU cooler):
the checks RULES.md lists under "Beyond the guides", from vendor specs."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.pcie import Placement, Seat
from configurator.core.rules.context import Ctx

ATX_WIDTH_MM = 244  # the ATX board's 9.6 in; anything wider needs the case's published limit (FIT-5)
SMALL_PSU = ("SFX", "SFX-L")  # fit an ATX bay with an adapter bracket (FIT-4)
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


def mid_tower(form_factor: str) -> bool:
    ff = form_factor.lower()
    return "mid tower" in ff or "mini tower" in ff or "micro" in ff or "itx" in ff or "sff" in ff


def fit(ctx: Ctx) -> None:
    _psu(ctx)
    _board(ctx)
    _cooler(ctx)


def _psu(ctx: Ctx) -> None:
    case = ctx.r.case
    if case is None:
        return
    plain = sum(bp.qty for part, bp in ctx.r.items if part.category == "psu" and not getattr(part, "redundant", False))
    if plain > case.psu_mounts:
        ctx.add("FIT-4", "error", "vendor specs",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "{n} power supplies, and {case} mounts {mounts}: the others have nowhere to go. Use one supply "
                    "that covers the build, or a case made for two."),
                {"supplies": plain, "psu_mounts": case.psu_mounts},
                rests_on=[(case, "psu_mounts")], n=plain, case=case.name, mounts=case.psu_mounts)
    for psu in {p.id: p for p in ctx.r.psus}.values():
        if psu.form_factor in case.psu_form_factors:
            continue
        numbers = {"psu_form_factor": psu.form_factor, "case_psu_form_factors": case.psu_form_factors}
        if psu.form_factor in SMALL_PSU and "ATX" in case.psu_form_factors:
            ctx.add("FIT-4", "warning", "vendor specs",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "{psu} is {ff}; {case} has an ATX bay: it fits with an {ff}-to-ATX adapter bracket."),
                    numbers, rests_on=[(case, "psu_form_factors")], psu=psu.name, ff=psu.form_factor, case=case.name)
        else:
            ctx.add("FIT-4", "error", "vendor specs",
                    QT_TRANSLATE_NOOP("rules", "{psu} is {ff}; {case} takes {ffs} power supplies only."),
                    numbers, rests_on=[(case, "psu_form_factors")], psu=psu.name, ff=psu.form_factor, case=case.name,
                    ffs=", ".join(case.psu_form_factors) or "—")


def _board(ctx: Ctx) -> None:
    board, case = ctx.r.board, ctx.r.case
    if board is None or case is None:
        return
    numbers = {"board_width_mm": board.width_mm, "board_depth_mm": board.depth_mm,
               "case_max_width_mm": case.max_board_width_mm, "case_max_depth_mm": case.max_board_depth_mm}
    for size, limit, template, on in (
            (board.width_mm, case.max_board_width_mm, QT_TRANSLATE_NOOP(
                "rules", "{board} is {size} mm wide ({ff}); {case} takes boards up to {limit} mm wide."),
             [(board, "width_mm"), (case, "max_board_width_mm")]),
            (board.depth_mm, case.max_board_depth_mm, QT_TRANSLATE_NOOP(
                "rules", "{board} is {size} mm deep ({ff}); {case} takes boards up to {limit} mm deep."),
             [(board, "depth_mm"), (case, "max_board_depth_mm")])):
        if size is not None and limit is not None and size > limit:
            ctx.add("FIT-5", "error", "vendor specs", template, numbers, rests_on=on, board=board.name, size=size,
                    ff=board.form_factor, case=case.name, limit=limit)
    if board.width_mm is not None and board.width_mm > ATX_WIDTH_MM and case.max_board_width_mm is None:
        ctx.add("FIT-5", "info", "vendor specs",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "{board} is {size} mm wide, more than ATX's {atx} mm; {case} publishes no width limit: "
                    "check that it takes a board this wide."),
                numbers, board=board.name, size=board.width_mm, atx=ATX_WIDTH_MM, case=case.name)


def _cooler(ctx: Ctx) -> None:
    r = ctx.r
    cpu, case = r.cpu, r.case
    if not r.coolers:
        if cpu is not None and not cpu.boxed_cooler:
            ctx.add("FIT-6", "info", "vendor specs",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "No CPU cooler chosen, and {cpu} comes without one: add a cooler rated for its {w} W "
                        "that fits socket {socket} (a server chassis's heatsink is also bought separately)."),
                    {"cpu_max_power_w": cpu.max_power_w, "socket": cpu.socket}, cpu=cpu.name,
                    w=cpu.max_power_w, socket=cpu.socket)
        return
    count = sum(q for _c, q in r.coolers)
    if cpu is not None and count < r.cpu_count:
        ctx.add("FIT-6", "info", "vendor specs",
                QT_TRANSLATE_NOOP("rules", "{n} CPU cooler(s) for {cpus} CPUs: each CPU needs its own."),
                {"coolers": count, "cpus": r.cpu_count}, n=count, cpus=r.cpu_count)
    for cooler in {c.id: c for c, _q in r.coolers}.values():
        numbers = {"part": cooler.id, "kind": cooler.kind, "height_mm": cooler.height_mm,
                   "radiator_mm": cooler.radiator_mm, "rated_tdp_w": cooler.rated_tdp_w}
        if cpu is not None:
            numbers.update(cpu_socket=cpu.socket, cpu_max_power_w=cpu.max_power_w)
            if cpu.socket not in cooler.cpu_sockets:
                ctx.add("FIT-6", "error", "vendor specs",
                        QT_TRANSLATE_NOOP("rules", "{cooler} mounts on {sockets}, not on {cpu}'s {socket}."),
                        numbers, cooler=cooler.name, sockets=", ".join(cooler.cpu_sockets), cpu=cpu.name,
                        socket=cpu.socket)
            if cooler.rated_tdp_w is None:
                ctx.add("FIT-6", "info", "vendor specs",
                        QT_TRANSLATE_NOOP(
                            "rules",
                            "{vendor} publishes no TDP rating for {cooler}: check the vendor's CPU compatibility "
                            "list for {cpu} ({w} W maximum power)."),
                        numbers, vendor=cooler.brand, cooler=cooler.name, cpu=cpu.name, w=cpu.max_power_w)
            elif cooler.rated_tdp_w < cpu.max_power_w:
                ctx.add("FIT-6", "warning", "vendor specs",
                        QT_TRANSLATE_NOOP(
                            "rules",
                            "{cooler} is rated for {tdp} W; {cpu} draws up to {w} W, so under sustained all-core "
                            "load (data loading, CPU inference) it runs at its temperature limit and clocks "
                            "down."),
                        numbers,
                        rests_on=[(cooler, "rated_tdp_w")],
                        cooler=cooler.name, tdp=cooler.rated_tdp_w, cpu=cpu.name, w=cpu.max_power_w)
        if case is None:
            continue
        if cooler.kind == "air" and cooler.height_mm is not None:
            if case.max_cpu_cooler_mm is None:
                ctx.add("FIT-6", "info", "vendor specs",
                        QT_TRANSLATE_NOOP(
                            "rules",
                            "{case} publishes no CPU cooler height; {cooler} is {h} mm tall: check it fits."),
                        numbers, case=case.name, cooler=cooler.name, h=cooler.height_mm)
            elif cooler.height_mm > case.max_cpu_cooler_mm:
                ctx.add("FIT-6", "error", "vendor specs",
                        QT_TRANSLATE_NOOP(
                            "rules", "{cooler} is {h} mm tall; {case} takes CPU coolers up to {max} mm."),
                        {**numbers, "case_max_mm": case.max_cpu_cooler_mm},
                        rests_on=[(cooler, "height_mm"), (case, "max_cpu_cooler_mm")], cooler=cooler.name,
                        h=cooler.height_mm, case=case.name, max=case.max_cpu_cooler_mm)
        elif cooler.kind == "aio" and cooler.radiator_mm is not None:
            sizes = case.radiator_sizes_mm
            if sizes is None:
                ctx.add("FIT-6", "info", "vendor specs",
                        QT_TRANSLATE_NOOP(
                            "rules",
                            "{case} publishes no radiator mounts; {cooler} has a {r} mm radiator: check it fits."),
                        numbers, case=case.name, cooler=cooler.name, r=cooler.radiator_mm)
            elif not sizes:
                ctx.add("FIT-6", "error", "vendor specs",
                        QT_TRANSLATE_NOOP(
                            "rules", "{cooler} has a {r} mm radiator; {case} has no radiator mount."),
                        {**numbers, "case_radiator_mm": sizes}, rests_on=[(case, "radiator_sizes_mm")],
                        cooler=cooler.name, r=cooler.radiator_mm, case=case.name)
            elif cooler.radiator_mm not in sizes:
                ctx.add("FIT-6", "error", "vendor specs",
                        QT_TRANSLATE_NOOP(
                            "rules", "{cooler} has a {r} mm radiator; {case} mounts {sizes} mm radiators."),
                        {**numbers, "case_radiator_mm": sizes}, rests_on=[(case, "radiator_sizes_mm")],
                        cooler=cooler.name, r=cooler.radiator_mm, case=case.name, sizes=", ".join(map(str, sizes)))
