"""Fit (FIT-1..7): the workload's estimated memory against each GPU's VRAM (FIT-1) and the host RAM
(FIT-2), the data set against the storage (FIT-3), and beyond the guides, from vendor specs: the power
supply's form factor (FIT-4), the board's size (FIT-5) and the CPU cooler (FIT-6) in the case, the
drives against the board's connectors and the case's bays (FIT-7)."""

from __future__ import annotations

from typing import Any

from configurator.core.estimate.memory import verdict
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.rules.shared import Ctx, option_list
from configurator.core.units import GIB

ATX_WIDTH_MM = 244  # the ATX board's 9.6 in; anything wider needs the case's published limit (FIT-5)
SMALL_PSU = ("SFX", "SFX-L")  # fit an ATX bay with an adapter bracket (FIT-4)


def vram(ctx: Ctx) -> None:
    """FIT-1: the estimate per GPU against the smallest card; where it does not fit, the memory options
    that make it fit (RAM-4 lists them all: ram.reduce)."""
    n_gpus = len(ctx.counted)
    w = ctx.workload
    vram = ctx.vram
    gpus = ctx.r.gpu_list
    if w is None or vram is None or not gpus:
        return
    have = min(g.vram_gb for g in gpus)
    need = vram.total / GIB
    low, high = vram.low / GIB, vram.high / GIB
    state = verdict(vram, have)
    numbers = {"need_gib": round(need, 2), "low_gib": round(low, 2), "high_gib": round(high, 2),
               "verdict": state, "vram_gib": have, "breakdown_gib": vram.gib(), "gpus": n_gpus,
               "sharding": w.sharding, "parallel": w.parallel, "finetune": w.finetune, "offload": w.offload,
               "precision": w.precision, "batch": w.effective_batch,
               "display_gpu": ctx.r.build.options.display_gpu}
    parts: dict[str, Any] = dict(w=vram.weights / GIB, g=vram.gradients / GIB, o=vram.optimizer / GIB,
                 a=(vram.activations + vram.autocast_copies + vram.recompute) / GIB, lg=vram.logits / GIB,
                 kv=vram.kv_cache / GIB, c=(vram.context + vram.display + vram.margin) / GIB)
    if state == "does_not_fit":
        options = ctx.memory_options
        numbers["options"] = [o.to_json() for o in options]
        fits = [o for o in options if o.verdict != "does_not_fit"]
        ctx.add("FIT-1", "error", "first principles",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Estimated {need:.1f} GiB per GPU (range {low:.1f}–{high:.1f}: weights {w:.1f}, gradients "
                    "{g:.1f}, optimizer {o:.1f}, activations {a:.1f}, logits and loss {lg:.1f}, KV cache {kv:.1f}, "
                    "CUDA context, display and allocator margin {c:.1f}): even the low end is more than the {have} "
                    "GiB on the card. {fixes}"),
                numbers, need=need, low=low, high=high, have=have, **parts,
                fixes=Message("rules", QT_TRANSLATE_NOOP("rules", "It fits with: {options} (RAM-4)."),
                              {"options": option_list(fits)}) if fits else Message("rules", QT_TRANSLATE_NOOP(
                                  "rules", "No single option makes it fit (RAM-4): a card with more memory.")))
    elif state == "tight":
        ctx.add("FIT-1", "warning", "first principles",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Tight: estimated {need:.1f} GiB per GPU (range {low:.1f}–{high:.1f}) against {have} GiB; "
                    "within the estimate's error (saved tensors ±10 %, allocator margin 0–25 %) it may run out "
                    "of memory. Leave {margin:.1f} GiB more room to be sure."),
                numbers, need=need, low=low, high=high, have=have, margin=high - have)
    else:
        ctx.add("FIT-1", "info", "first principles",
                QT_TRANSLATE_NOOP("rules",
                                  "Fits: estimated {need:.1f} GiB per GPU (range {low:.1f}–{high:.1f}) of {have} "
                                  "GiB ({share:.0%}); {margin:.1f} GiB to spare at the high end."),
                numbers, need=need, low=low, high=high, have=have, share=need / have, margin=have - high)


def host_ram(ctx: Ctx) -> None:
    """FIT-2: the first-principles host RAM estimate against the RAM installed."""
    r = ctx.r
    w = ctx.workload
    ram = r.ram_gb
    if not r.memory or w is None:
        return
    est = ctx.ram
    assert est is not None
    numbers = ctx.ram_numbers()
    if ram < est.first_principles_gib:
        ctx.add("FIT-2", "error", "first principles",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Estimated host RAM need {need:.1f} GiB (first principles: OS and libraries, a host copy of "
                    "the weights per process, DataLoader prefetch) is more than the {ram} GiB installed."),
                numbers, need=est.first_principles_gib, ram=ram)


def dataset(ctx: Ctx) -> None:
    """FIT-3: the workload's data set against the build's storage."""
    r = ctx.r
    w = ctx.workload
    if not r.storage or w is None or not w.dataset_gb:
        return
    fast_gb = sum(s.capacity_gb * q for s, q in r.storage if s.kind != "hdd")
    total_gb = sum(s.capacity_gb * q for s, q in r.storage)
    best = max(r.storage, key=lambda sq: sq[0].seq_read_mbs)[0]
    if w.dataset_gb > total_gb:
        numbers = {"fast_gb": fast_gb, "total_gb": total_gb, "best_seq_read_mbs": best.seq_read_mbs,
                   "dataset_gb": w.dataset_gb}
        ctx.add("FIT-3", "error", "G 四.1",
                QT_TRANSLATE_NOOP("rules", "The {ds:g} GB data set does not fit on {gb} GB of storage."),
                numbers, ds=w.dataset_gb, gb=total_gb)


def psu_form_factor(ctx: Ctx) -> None:
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


def board_size(ctx: Ctx) -> None:
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


def cpu_cooler(ctx: Ctx) -> None:
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


def drive_bays(ctx: Ctx) -> None:
    """FIT-7: M.2 drives against the board's usable connectors, SATA drives against its ports, 3.5" and
    2.5" drives against the case's bays (3.5" bays also take 2.5" drives)."""
    r = ctx.r
    board, case = r.board, r.case
    drives = [s for s, q in r.storage for _ in range(q)]
    if not drives:
        return
    pl = ctx.placement
    m2 = [d for d in drives if d.form_factor.startswith("M.2")]
    if board is not None and pl is not None and pl.drives_unplaced:
        ctx.add("FIT-7", "error", "vendor specs",
                QT_TRANSLATE_NOOP("rules", "{n} M.2 drives but {board} has {slots} usable M.2 connectors."),
                {"m2_drives": len(m2), "m2_slots": pl.m2_usable}, n=len(m2), board=board.name, slots=pl.m2_usable)
    sata = [d for d in drives if d.interface.upper().startswith("SATA") and not d.form_factor.startswith("M.2")]
    if board is not None and len(sata) > board.sata_ports:
        ctx.add("FIT-7", "error", "vendor specs",
                QT_TRANSLATE_NOOP("rules", "{n} SATA drives but {board} has {ports} SATA ports."),
                {"sata_drives": len(sata), "sata_ports": board.sata_ports}, n=len(sata), board=board.name,
                ports=board.sata_ports)
    u2 = [d for d in drives if d.form_factor.startswith("U.2")]
    if u2:
        ctx.add("FIT-7", "info", "vendor specs",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "{n} U.2 drive(s): each needs a U.2 port (OCuLink, SlimSAS or MCIO on server boards), a "
                    "backplane or a PCIe adapter card; the board's connectors are not counted here."),
                {"u2_drives": len(u2)}, n=len(u2))
    if case is None or case.bays_35 is None:
        return
    big = sum(1 for d in drives if d.form_factor.startswith("3.5"))
    small = sum(1 for d in drives if d.form_factor.startswith(("2.5", "U.2")))
    bays_25 = case.bays_25 or 0
    numbers = {"drives_35": big, "drives_25": small, "bays_35": case.bays_35, "bays_25": bays_25}
    bays = [(case, "bays_35"), (case, "bays_25")]
    if big > case.bays_35:
        ctx.add("FIT-7", "error", "vendor specs",
                QT_TRANSLATE_NOOP("rules", "{n} 3.5\" drives but {case} has {bays} 3.5\" bays."),
                numbers, rests_on=bays, n=big, case=case.name, bays=case.bays_35)
    elif small > bays_25 + case.bays_35 - big:
        ctx.add("FIT-7", "error", "vendor specs",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "{n} 2.5\" drives but {case} has {small} 2.5\" mounts and {free} free 3.5\" bays."),
                numbers, rests_on=bays, n=small, case=case.name, small=bays_25, free=case.bays_35 - big)
