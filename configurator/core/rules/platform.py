"""PCIe and multi-GPU (PCI-1..7) and compatibility (COMP-1..5)."""

from __future__ import annotations

import math

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import Gpu, Motherboard
from configurator.core.pcie import layout
from configurator.core.rules.context import Ctx


def _lane_source(source: str) -> Message:
    if source == "cpu":
        return Message("rules", QT_TRANSLATE_NOOP("rules", "CPU"))
    return Message("rules", QT_TRANSLATE_NOOP("rules", "chipset"))


def pcie(ctx: Ctx) -> None:
    r = ctx.r
    gpus = r.gpu_list
    sxm = r.module_gpus  # PCI-8 (rules/topology.py): they sit on a baseboard
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


def compat(ctx: Ctx) -> None:
    r = ctx.r
    board, cpu = r.board, r.cpu
    if board and cpu:
        if cpu.socket != board.socket:
            ctx.add("COMP-1", "error", "vendor specs",
                    QT_TRANSLATE_NOOP("rules", "{cpu} ({cs}) does not fit {board} ({bs})."),
                    {"cpu_socket": cpu.socket, "board_socket": board.socket},
                    cpu=cpu.name, cs=cpu.socket, board=board.name, bs=board.socket)
        if r.cpu_count > board.sockets:
            ctx.add("COMP-1", "error", "vendor specs",
                    QT_TRANSLATE_NOOP("rules", "{n} CPUs but {board} has {s} socket(s)."),
                    {"cpus": r.cpu_count, "sockets": board.sockets}, n=r.cpu_count, board=board.name, s=board.sockets)
        elif r.cpu_count > cpu.max_sockets:
            ctx.add("COMP-1", "error", "vendor specs",
                    QT_TRANSLATE_NOOP("rules", "{cpu} supports {m}-socket systems only; the build has {n}."),
                    {"cpus": r.cpu_count, "max_sockets": cpu.max_sockets}, cpu=cpu.name, m=cpu.max_sockets,
                    n=r.cpu_count)
        if cpu.launch_year and board.launch_year and cpu.launch_year > board.launch_year:
            ctx.add("COMP-5", "warning", "G 六.3",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "{cpu} ({cy}) is newer than {board} ({by}): the board may need a BIOS update before it "
                        "starts with this CPU."),
                    {"cpu_year": cpu.launch_year, "board_year": board.launch_year}, guide="更新主板BIOS至最新版本",
                    cpu=cpu.name, cy=cpu.launch_year, board=board.name, by=board.launch_year)
    _memory_compat(ctx)
    _case(ctx)


def _memory_compat(ctx: Ctx) -> None:
    r = ctx.r
    board, cpu = r.board, r.cpu
    types = {m.memory_type for m, _q in r.memory}
    if len(types) > 1:
        ctx.add("COMP-2", "error", "vendor specs", QT_TRANSLATE_NOOP("rules", "DDR4 and DDR5 kits cannot be mixed."),
                {"types": sorted(types)})
    if len({m.rdimm for m, _q in r.memory}) > 1:
        ctx.add("COMP-2", "error", "vendor specs",
                QT_TRANSLATE_NOOP("rules", "Registered (RDIMM) and unbuffered (UDIMM) modules cannot be mixed."), {})
    for m, _q in r.memory:
        if board and m.memory_type != board.memory_type:
            ctx.add("COMP-2", "error", "vendor specs",
                    QT_TRANSLATE_NOOP("rules", "{kit} is {kt}; {board} takes {bt}."),
                    {"kit_type": m.memory_type, "board_type": board.memory_type},
                    kit=m.name, kt=m.memory_type, board=board.name, bt=board.memory_type)
        if cpu and m.memory_type not in cpu.memory_types:
            ctx.add("COMP-2", "error", "vendor specs",
                    QT_TRANSLATE_NOOP("rules", "{kit} is {kt}; {cpu} supports {ct} only."),
                    {"kit_type": m.memory_type, "cpu_types": cpu.memory_types},
                    kit=m.name, kt=m.memory_type, cpu=cpu.name, ct=", ".join(cpu.memory_types))
        if m.rdimm:
            for who, ok in ((board.name if board else None, board.rdimm if board else True),
                            (cpu.name if cpu else None, cpu.rdimm if cpu else True)):
                if who and not ok:
                    ctx.add("COMP-2", "error", "vendor specs",
                            QT_TRANSLATE_NOOP(
                                "rules",
                                "{kit} is registered (RDIMM); {who} takes unbuffered DIMMs only."),
                            {"rdimm": True}, kit=m.name, who=who)
        elif board and not board.udimm:
            ctx.add("COMP-2", "error", "vendor specs",
                    QT_TRANSLATE_NOOP("rules", "{kit} is unbuffered; {board} takes registered DIMMs (RDIMM) only."),
                    {"rdimm": False}, kit=m.name, board=board.name)
        if m.ecc and not m.rdimm:
            for who, ok in ((board.name if board else None, board.ecc if board else True),
                            (cpu.name if cpu else None, cpu.ecc if cpu else True)):
                if who and not ok:
                    ctx.add("COMP-2", "warning", "vendor specs",
                            QT_TRANSLATE_NOOP(
                                "rules",
                                "{kit} is ECC but {who} does not support ECC: it will run without error correction."),
                            {"ecc": True}, kit=m.name, who=who)
    if board and r.memory:
        cap_limit = board.max_memory_gb
        slots = board.memory_slots
        if cpu and 0 < r.cpu_count < board.sockets:  # PCI-9: the empty socket's slots do not work
            slots = board.memory_slots * r.cpu_count // board.sockets
            cap_limit = board.max_memory_gb * r.cpu_count // board.sockets
        if cpu:
            cap_limit = min(cap_limit, cpu.max_memory_gb * max(r.cpu_count, 1))
        numbers = {"modules": r.modules, "slots": slots, "ram_gb": r.ram_gb, "max_gb": cap_limit}
        if r.modules > slots:
            ctx.add("COMP-3", "error", "vendor specs",
                    QT_TRANSLATE_NOOP("rules", "{n} memory modules but {board} has {slots} working slots."), numbers,
                    n=r.modules, board=board.name, slots=slots)
        if r.ram_gb > cap_limit:
            ctx.add("COMP-3", "error", "vendor specs",
                    QT_TRANSLATE_NOOP(
                        "rules",
                        "{ram} GiB of memory is more than the {limit} GiB the board and CPU support."),
                    numbers, ram=r.ram_gb, limit=cap_limit)


def _case(ctx: Ctx) -> None:
    r = ctx.r
    case = r.case
    if case is None:
        return
    for g in {g.id: g for g in r.gpu_list}.values():
        if g.length_mm and g.length_mm > case.max_gpu_length_mm:
            ctx.add("COMP-4", "error", "vendor specs",
                    QT_TRANSLATE_NOOP("rules", "{gpu} is {len} mm long; {case} takes cards up to {max} mm."),
                    {"gpu_length_mm": g.length_mm, "case_max_mm": case.max_gpu_length_mm},

                    rests_on=[(g, "length_mm"), (case, "max_gpu_length_mm")],
                    gpu=g.name, len=g.length_mm, case=case.name, max=case.max_gpu_length_mm)
    board = r.board
    if board and board.form_factor not in case.board_form_factors:
        ctx.add("COMP-4", "error", "vendor specs",
                QT_TRANSLATE_NOOP("rules", "{case} takes {ffs} boards, not {ff} ({board})."),
                {"board_form_factor": board.form_factor, "case_form_factors": case.board_form_factors},
                case=case.name, ffs=", ".join(case.board_form_factors), ff=board.form_factor, board=board.name)
    pl = ctx.placement
    if pl and pl.lowest_position > case.expansion_slots:
        ctx.add("COMP-4", "error", "vendor specs",
                QT_TRANSLATE_NOOP(
                    "rules",
                    "The GPUs reach expansion position {pos}; {case} has {slots} expansion slots."),
                {"lowest_position": pl.lowest_position, "case_slots": case.expansion_slots},

                rests_on=[(board, "pcie_slots"), (case, "expansion_slots")],
                pos=pl.lowest_position, case=case.name, slots=case.expansion_slots)
