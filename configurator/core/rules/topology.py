"""Topology beyond the guides (RULES.md): GPU baseboards (PCI-8), an empty second socket (PCI-9),
M.2 lane sharing (PCI-10), drives against connectors and bays (FIT-7), peer-to-peer (PCI-11) and
NVLink bridge spacing (PCI-12)."""

from __future__ import annotations

from configurator.core.estimate import interconnect as ic
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import Gpu
from configurator.core.rules.context import Ctx

GUIDE_ENTERPRISE = "A100 80GB×4（NVSwitch连接）"


def topology(ctx: Ctx, counted: list[Gpu]) -> None:
    """``counted``: the GPUs the estimates count (cards in a slot, modules on a baseboard)."""
    _baseboard(ctx)
    _sockets(ctx)
    _m2(ctx)
    _drives(ctx)
    _p2p(ctx, counted)
    _bridge_spacing(ctx)


def _baseboard(ctx: Ctx) -> None:
    """PCI-8: SXM/OAM modules need a baseboard that takes them; the 4-GPU HGX A100 has no NVSwitch."""
    r = ctx.r
    modules = r.module_gpus
    platforms = r.platforms
    for p in platforms:
        fits = [g for g in modules if ic.takes_module(p, g)]
        if not fits:
            ctx.add("PCI-8", "error", "vendor specs",
                    QT_TRANSLATE_NOOP("rules", "{board} holds {ff} modules of the {arch} architecture; the build "
                                               "has none for it."),
                    {"platform": p.id}, board=p.name, ff=p.module_form_factor.upper(), arch=", ".join(p.architectures))
    room = sum(p.gpu_slots for p in platforms)
    by_id = {g.id: g for g in modules}
    for g in by_id.values():
        count = sum(1 for m in modules if m.id == g.id)
        takes = [p for p in platforms if ic.takes_module(p, g)]
        if not platforms:
            ctx.add("PCI-8", "error", "vendor specs",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "{name} is an {ff} module: it only runs on a GPU baseboard (HGX/OAM platform), never in a "
                        "PCIe slot; add a baseboard for {n} module(s)."),
                    {"part": g.id, "modules": count}, name=g.name, ff=g.form_factor.upper(), n=count)
        elif not takes:
            ctx.add("PCI-8", "error", "vendor specs",
                    QT_TRANSLATE_NOOP("rules", "No baseboard in this build takes {name} ({ff}, {arch})."),
                    {"part": g.id}, name=g.name, ff=g.form_factor.upper(), arch=g.architecture)
    if platforms and len(modules) > room:
        ctx.add("PCI-8", "error", "vendor specs",
                QT_TRANSLATE_NOOP("rules", "{n} modules but the baseboard(s) have {room} sockets; the estimates "
                                           "count {room}."),
                {"modules": len(modules), "sockets": room}, n=len(modules), room=room)
    if modules and r.build.options.nvlink_bridge:
        ctx.add("PCI-8", "error", "vendor specs",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "SXM/OAM modules take no PCIe NVLink bridge: their NVLink runs through the baseboard."),
                {"nvlink_bridge": True})
    for p in platforms:
        on = [g for g in modules if ic.takes_module(p, g)][:p.gpu_slots]
        if not on:
            continue
        numbers = {"platform": p.id, "topology": p.topology, "nvswitch_chips": p.nvswitch_chips,
                   "nvlink_gbs_per_gpu": p.nvlink_gbs_per_gpu, "modules": len(on)}
        if p.topology == "direct":
            pair = p.nvlink_gbs_per_gpu / max(p.gpu_slots - 1, 1)
            ctx.add("PCI-8", "info", "G 五.3",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "{board}: no NVSwitch. Each GPU's NVLink ({bw:g} GB/s) is split over direct links to the "
                        "other {others} ({pair:g} GB/s per pair). Erratum 10: the guide's \"4× A100 (NVSwitch)\" "
                        "does not exist; NVSwitch is on the 8-GPU HGX board."),
                    {**numbers, "pair_gbs": round(pair, 1)}, guide=GUIDE_ENTERPRISE, board=p.name,
                    bw=p.nvlink_gbs_per_gpu, others=p.gpu_slots - 1, pair=pair)
        else:
            ctx.add("PCI-8", "info", "vendor specs",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "{board}: {n} modules all-to-all through {chips} NVSwitch chips, {bw:g} GB/s NVLink per "
                        "GPU; host links PCIe Gen{gen} x{lanes} per GPU."),
                    numbers, board=p.name, n=len(on), chips=p.nvswitch_chips, bw=p.nvlink_gbs_per_gpu,
                    gen=p.host_pcie_gen, lanes=p.host_pcie_lanes)


def _sockets(ctx: Ctx) -> None:
    """PCI-9: with fewer CPUs than sockets, the slots and memory of the empty sockets do not work."""
    r = ctx.r
    board = r.board
    if board is None or board.sockets <= 1 or not r.cpus or r.cpu_count >= board.sockets:
        return
    pl = ctx.placement
    dead = list(pl.dead_slots + pl.dead_m2) if pl else [s.name for s in board.pcie_slots if s.socket > r.cpu_count]
    memory = board.memory_slots * r.cpu_count // board.sockets
    ctx.add("PCI-9", "warning", "vendor specs",
            QT_TRANSLATE_NOOP(
                "rules",
                "{board} has {s} sockets and {n} CPU: the slots of the empty socket ({slots}) do not work, and "
                "only {mem} of the {all} memory slots do."),
            {"cpus": r.cpu_count, "sockets": board.sockets, "dead_slots": dead, "memory_slots_working": memory},
            board=board.name, s=board.sockets, n=r.cpu_count, slots=", ".join(dead) or "—", mem=memory,
            all=board.memory_slots)


def _m2(ctx: Ctx) -> None:
    """PCI-10: an M.2 drive in a connector that shares lanes with a GPU slot lowers that slot's link."""
    pl = ctx.placement
    if pl is None:
        return
    wiring = [(ctx.r.board, "m2_slots"), (ctx.r.board, "pcie_slots")]
    seats = {s.slot.name: n for n, s in enumerate(pl.seats, start=1)}
    board = ctx.r.board
    for low in pl.lowered:
        numbers = {"slot": low.slot, "m2": low.m2, "lanes": low.lanes, "was": low.was}
        if low.slot in seats and board is not None:
            n = seats[low.slot]
            drive = next((d.drive for d in pl.drives if d.slot.name == low.m2), None)
            # The connectors that cost no seated GPU lanes: the layout fills them first, so they hold other drives.
            clear = [m.name for m in board.m2_slots if m.name not in pl.dead_m2
                     and (m.slot_lanes_when_used is None or not set(m.shares_with) & set(seats))]
            sata = sum(q for s, q in ctx.r.storage if s.interface.upper().startswith("SATA")
                       and not s.form_factor.startswith("M.2"))
            fix = Message("rules", QT_TRANSLATE_NOOP(
                "rules", "To give it back: one M.2 drive fewer (a larger one), since {clear} leave the GPU slots "
                         "their lanes and hold the other drives; or a SATA drive instead ({free} of {ports} SATA "
                         "ports free)."), {"clear": ", ".join(clear), "free": max(board.sata_ports - sata, 0),
                                           "ports": board.sata_ports}) if clear else Message(
                "rules", QT_TRANSLATE_NOOP(
                    "rules", "Every M.2 connector on {board} that is free takes GPU lanes: use a SATA drive instead "
                             "({free} of {ports} SATA ports free), or a board whose M.2 connectors leave the GPU "
                             "slots their lanes."), {"board": board.name, "free": max(board.sata_ports - sata, 0),
                                                     "ports": board.sata_ports})
            ctx.add("PCI-10", "warning", "board manual",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "GPU {n} in {slot} runs x{lanes} instead of x{was} because of the drive {drive} in {m2}: that "
                        "connector takes the slot's other lanes (board manual). {fix}"),
                    {**numbers, "gpu": n, "drive": drive.id if drive else None, "clear_m2": clear,
                     "sata_ports": board.sata_ports}, rests_on=wiring,
                    n=n, slot=low.slot, lanes=low.lanes, was=low.was, m2=low.m2,
                    drive=drive.name if drive else "?", fix=fix)
        elif low.lanes == 0:
            ctx.add("PCI-10", "info", "board manual",
                    QT_TRANSLATE_NOOP("rules", "{slot} is off while {m2} holds a drive (they share lanes)."),
                    numbers, rests_on=wiring, slot=low.slot, m2=low.m2)
        else:
            ctx.add("PCI-10", "info", "board manual",
                    QT_TRANSLATE_NOOP("rules", "{slot} drops to x{lanes} while {m2} holds a drive."),
                    numbers, rests_on=wiring, slot=low.slot, m2=low.m2, lanes=low.lanes)


def _drives(ctx: Ctx) -> None:
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


def _p2p(ctx: Ctx, counted: list[Gpu]) -> None:
    """PCI-11: GeForce RTX 40/50 cards have no peer-to-peer; all-reduce goes through host memory."""
    if len(counted) < 2:
        return
    without = sorted({g.name for g in counted if not ic.has_p2p(g)})
    if not without:
        return
    w = ctx.workload
    train = w is not None and w.task == "train"
    ctx.add("PCI-11", "warning" if train else "info", "vendor specs",
            QT_TRANSLATE_NOOP(
                "rules",
                "{names}: no peer-to-peer between GeForce RTX 40/50 cards, so every all-reduce goes through host "
                "memory (NCCL's SHM path) at about half the PCIe rate; the scaling estimate uses that path."),
            {"gpus": len(counted), "share_of_pcie": ic.HOST_PATH_SHARE}, names=", ".join(without))


def _bridge_spacing(ctx: Ctx) -> None:
    """PCI-12: an NVLink bridge joins two cards whose slots are one of its fixed spacings apart."""
    r = ctx.r
    pl = ctx.placement
    if not r.build.options.nvlink_bridge or pl is None or len(pl.seats) < 2:
        return
    seats = sorted(pl.seats, key=lambda s: s.slot.position)
    for a, b in zip(seats[0::2], seats[1::2], strict=False):
        if not (a.gpu.nvlink and b.gpu.nvlink) or a.gpu.id != b.gpu.id:
            continue  # PCI-4 says why no bridge joins them
        spacings = ic.bridge_spacings(a.gpu)
        gap = b.slot.position - a.slot.position
        numbers = {"slots": [a.slot.name, b.slot.name], "spacing": gap, "bridges": list(spacings or ())}
        if spacings is None:
            ctx.add("PCI-12", "info", "vendor specs",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "{a} and {b} are {gap} slots apart: check that an NVLink bridge for {gpu} comes in that "
                        "spacing."), numbers, a=a.slot.name, b=b.slot.name, gap=gap, gpu=a.gpu.name)
        elif gap not in spacings:
            ctx.add("PCI-12", "error", "vendor specs",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "{a} and {b} are {gap} slots apart; NVLink bridges for {gpu} come in {sizes}-slot "
                        "spacings only, so no bridge joins these two cards."),
                    numbers, a=a.slot.name, b=b.slot.name, gap=gap, gpu=a.gpu.name,
                    sizes="/".join(str(x) for x in spacings))
        else:
            ctx.add("PCI-12", "info", "vendor specs",
                    QT_TRANSLATE_NOOP("rules", "{a} and {b} are {gap} slots apart: use a {gap}-slot NVLink bridge."),
                    numbers, a=a.slot.name, b=b.slot.name, gap=gap)
