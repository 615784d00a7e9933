"""Compatibility (COMP-1..5): CPU socket and socket count, memory type, registration and ECC, memory
modules and capacity, the case against the GPUs and the board, a CPU newer than its board's BIOS."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.shared import Ctx


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
