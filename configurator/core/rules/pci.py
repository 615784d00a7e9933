"""PCIe and multi-GPU (PCI-1..12): each GPU's link (PCI-1, PCI-3), GPUs against slots (PCI-2), NVLink
(PCI-4), data-parallel scaling and batch (PCI-5..7), and beyond the guides: GPU baseboards (PCI-8), an
empty second socket (PCI-9), M.2 lane sharing (PCI-10), peer-to-peer (PCI-11) and NVLink bridge spacing
(PCI-12)."""

from __future__ import annotations

import math

from configurator.core.estimate import interconnect as ic
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import Gpu, Motherboard
from configurator.core.pcie import layout
from configurator.core.rules.shared import Ctx

GUIDE_ENTERPRISE = "A100 80GB×4（NVSwitch连接）"


def _lane_source(source: str) -> Message:
    if source == "cpu":
        return Message("rules", QT_TRANSLATE_NOOP("rules", "CPU"))
    return Message("rules", QT_TRANSLATE_NOOP("rules", "chipset"))


def pcie(ctx: Ctx) -> None:
    r = ctx.r
    gpus = r.gpu_list
    sxm = r.module_gpus  # PCI-8 (baseboard()): they sit on a baseboard
    board = r.board
    pl = ctx.placement
    if board is None or pl is None or not gpus:
        return
    n_pcie = len(gpus) - len(sxm)
    unplaced = [i for i in pl.unplaced if gpus[i].form_factor == "pcie"]
    numbers = {"gpus": n_pcie, "x16_slots": pl.x16_slots, "placed": pl.placed}
    cards = [g for g in gpus if g.form_factor == "pcie"]
    if unplaced:
        boards = _boards_for(ctx, cards)
        ctx.add("PCI-2", "error", "G 二.3, 六.3",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "Only {placed} of {n} GPUs fit on {board}: it has {slots} usable x16-length slots and the "
                    "cards are {width} slots wide, so they cover neighbouring slots. The estimates count the "
                    "{placed} that fit.{fix}"),
                {**numbers, "boards": [b.id for b in boards]}, placed=pl.placed, n=n_pcie, board=board.name,
                slots=pl.x16_slots, rests_on=[(board, "pcie_slots")],
                width=max(g.slot_width or 1 for g in gpus if g.form_factor == "pcie"),
                fix=_boards_message(boards, cards))
    elif len(cards) >= 2 and any(s.lanes < 8 or s.slot.source == "chipset" for s in pl.seats):
        boards = _boards_for(ctx, cards)
        if boards:
            ctx.add("PCI-3", "info", "G 二.3",
                    QT_TRANSLATE_NOOP("rules", "{n} cards on {board} do not all get x8 or more from the CPU."
                                               "{fix}"),
                    {"boards": [b.id for b in boards]}, n=len(cards), board=board.name,
                    fix=_boards_message(boards, cards))
    for n, seat in enumerate(pl.seats, start=1):
        link = {"gpu": n, "slot": seat.slot.name, "lanes": seat.lanes, "gen": seat.gen, "from": seat.slot.source,
                "covers": list(seat.covers)}
        if seat.lanes < 8 or seat.slot.source == "chipset":
            ctx.add("PCI-3", "warning", "G 二.3",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "GPU {n}: x{lanes} Gen{gen} through the {src} in {slot}: host-to-GPU copies are limited "
                        "and shared."),
                    link,
                    rests_on=[(board, "pcie_slots")],
                    n=n, lanes=seat.lanes, gen=seat.gen, src=_lane_source(seat.slot.source),
                    slot=seat.slot.name)
        else:
            ctx.add("PCI-3", "info", "G 二.3",
                    QT_TRANSLATE_NOOP("rules", "GPU {n}: x{lanes} Gen{gen} from the {src} in {slot}."),
                    link, n=n, lanes=seat.lanes, gen=seat.gen, src=_lane_source(seat.slot.source),
                    slot=seat.slot.name)
        if seat.gen < 4 <= seat.gpu.pcie_gen:
            ctx.add("PCI-1", "warning", "G 六.3",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "GPU {n} runs at PCIe Gen{gen} though it supports Gen{card}; the guide recommends PCIe 4.0 "
                        "slots."),
                    {"gpu": n, "gen": seat.gen, "card_gen": seat.gpu.pcie_gen},
                    guide="验证PCIe插槽版本（建议PCIe 4.0）", n=n, gen=seat.gen, card=seat.gpu.pcie_gen)
    if not sxm:  # modules: no PCIe bridge, no PCIe scaling (PCI-8)
        _nvlink(ctx)
        _multi_gpu(ctx)


BOARDS_NAMED = 4  # the cheapest boards a fix names


def _boards_for(ctx: Ctx, cards: list[Gpu]) -> list[Motherboard]:
    """The cheapest boards in the catalogue (with every socket filled) that seat all these cards, each on x8 or
    more from the CPU (the platforms that take four cards: workstation and server boards)."""
    current = ctx.r.board
    out = []
    for p in ctx.catalogue.values():
        if not isinstance(p, Motherboard) or (current is not None and p.id == current.id):
            continue
        if _spaced(p, cards) < len(cards):
            continue  # not enough slots far enough apart on CPU lanes: no need to lay the cards out
        pl = layout(cards, p, None, None, p.sockets)
        if pl.unplaced or not all(s.lanes >= 8 and s.slot.source == "cpu" for s in pl.seats):
            continue
        out.append(p)
    return sorted(out, key=lambda b: (b.price_cny, b.id))[:BOARDS_NAMED]


def _spaced(board: Motherboard, cards: list[Gpu]) -> int:
    """How many of the widest of these cards fit in the board's x16-length slots fed by x8 or more CPU lanes,
    each slot at least a card's width below the last (greedy from the top: the most for equal widths)."""
    width = math.ceil(max((g.slot_width or 1) for g in cards))
    count, free_from = 0, 0
    for s in sorted(board.pcie_slots, key=lambda s: s.position):
        if s.physical_lanes >= 16 and s.electrical_lanes >= 8 and s.source == "cpu" and s.position >= free_from:
            count, free_from = count + 1, s.position + width
    return count


def _boards_message(boards: list[Motherboard], cards: list[Gpu]) -> Message | str:
    n = len(cards)
    width = max((g.slot_width or 1) for g in cards)
    if not boards and width > 2:
        return Message("rules", QT_TRANSLATE_NOOP(
            "rules", " No board in the catalogue seats {n} cards {width:g} slots wide on x8 or more from the CPU; "
                     "cards two slots wide (blower or water-cooled) fit the workstation and server boards with {n} "
                     "x16 slots."), {"n": n, "width": width})
    if not boards:
        return ""
    names = "; ".join(f"{b.name} ({b.socket}, {b.sockets} × CPU, ¥{b.price_cny:,})" if b.sockets > 1
                      else f"{b.name} ({b.socket}, ¥{b.price_cny:,})" for b in boards)
    return Message("rules", QT_TRANSLATE_NOOP(
        "rules", " Boards in the catalogue that seat all {n} on x8 or more from the CPU, cheapest first: {boards} "
                 "(each with a CPU for its socket)."), {"n": n, "boards": names})


def _nvlink(ctx: Ctx) -> None:
    gpus = ctx.r.gpu_list
    bridge = ctx.r.build.options.nvlink_bridge
    capable = bool(gpus) and all(g.nvlink for g in gpus) and len({g.id for g in gpus}) == 1
    if bridge:
        if len(gpus) < 2:
            ctx.add("PCI-4", "error", "G 二.3", QT_TRANSLATE_NOOP(
                "rules",
                "An NVLink bridge needs two GPUs; this build has {n}."),
                    {"gpus": len(gpus)}, n=len(gpus))
            return
        if not capable:
            odd = sorted({g.name for g in gpus if not g.nvlink})
            names: str | Message = ", ".join(odd) if odd else Message(
                "rules", QT_TRANSLATE_NOOP("rules", "different models"))
            ctx.add("PCI-4", "error", "G 二.3",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "An NVLink bridge only joins two identical NVLink-capable cards ({names} cannot)."),
                    {}, names=names)
            return
        g = gpus[0]
        limit = g.nvlink_max_gpus or 2
        numbers = {"nvlink_gbs": g.nvlink_bandwidth_gbs, "max_gpus": limit, "gpus": len(gpus)}
        if len(gpus) > limit:
            ctx.add("PCI-4", "warning", "G 二.3",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "{name} bridges are {limit}-way: {n} cards form {pairs} NVLink pairs joined over PCIe, not "
                        "one NVLink group (the guide's \"4 cards via NVLink\" is not possible)."),
                    numbers, guide="4张RTX 3090通过NVLink连接", name=g.name, limit=limit, n=len(gpus),
                    pairs=len(gpus) // limit)
            return  # one PCI-4 per build
        ctx.add("PCI-4", "info", "G 二.3",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "NVLink: {bw:g} GB/s between bridged cards (both directions together); PCIe 4.0 x16 gives "
                    "about 32 GB/s each way. The guide's \"100 GB/s vs PCIe 3.0 16 GB/s\" compares NVLink's "
                    "two-way total with one PCIe direction."),
                numbers, bw=g.nvlink_bandwidth_gbs or 0)
    elif capable and len(gpus) >= 2:
        ctx.add("PCI-4", "info", "G 二.3",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "These cards support an NVLink bridge ({bw:g} GB/s); it speeds up gradient exchange. "
                    "DataParallel and DDP work without it."),
                {"nvlink_gbs": gpus[0].nvlink_bandwidth_gbs}, bw=gpus[0].nvlink_bandwidth_gbs or 0)


def _multi_gpu(ctx: Ctx) -> None:
    n = len(ctx.r.gpu_list)
    if n < 2:
        return
    ctx.add("PCI-5", "info", "G 二.3",
            QT_TRANSLATE_NOOP("rules", "Data-parallel reference: 4× RTX 3090 reach 3.5× of one card (3.7× in theory); "
                       "expect {n} cards to scale less than {n}×."),
            {"gpus": n, "reference_measured": 3.5, "reference_theory": 3.7}, n=n)
    w = ctx.workload
    if w is None or w.task != "train":
        return
    ctx.add("PCI-7", "info", "G 二.3",
            QT_TRANSLATE_NOOP(
                "rules",
                "With DDP the global batch is {b} per card × {n} cards = {g}; scale the learning rate accordingly."),
            {"per_gpu_batch": w.effective_batch, "gpus": n, "global_batch": w.effective_batch * n},
            guide="batch_size≥单卡容量×卡数", b=w.effective_batch, n=n, g=w.effective_batch * n)
    if w.sharding in ("zero3", "fsdp"):
        ctx.add("PCI-6", "info", "G 二.3",
                QT_TRANSLATE_NOOP("rules", "{mode} gathers the parameters over the GPU link in every step: on PCIe the "
                           "communication can cancel the gain of more cards."),
                {"sharding": w.sharding}, guide="模型并行时，通信开销可能抵消多卡收益", mode=w.sharding)


def baseboard(ctx: Ctx) -> None:
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


def sockets(ctx: Ctx) -> None:
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


def m2(ctx: Ctx) -> None:
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


def p2p(ctx: Ctx) -> None:
    """PCI-11: GeForce RTX 40/50 cards have no peer-to-peer; all-reduce goes through host memory."""
    counted = ctx.counted  # the GPUs the estimates count (cards in a slot, modules on a baseboard)
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


def bridge_spacing(ctx: Ctx) -> None:
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
