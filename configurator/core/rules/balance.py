"""Balance beyond the guides (RULES.md): CPU cores per GPU for data loading (BAL-1), memory channels
populated (BAL-2), host RAM against the GPUs' VRAM (BAL-3)."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.parts import Gpu
from configurator.core.rules.context import Ctx

LOADER_WORKERS_PER_GPU = 4  # G 四.2 / STO-5: num_workers ≥ 4
CORES_PER_GPU = LOADER_WORKERS_PER_GPU + 1  # plus the training process itself
# Tim Dettmers asks for at least the largest GPU's memory; for several GPUs common practice is their
# total, so pinned staging buffers, checkpoints and a host copy of what the GPUs hold fit.
BAL3_SOURCE = "https://timdettmers.com/2018/12/16/deep-learning-hardware-guide/"


def balance(ctx: Ctx, counted: list[Gpu]) -> None:
    _cores(ctx, counted)
    _channels(ctx)
    _ram_vs_vram(ctx, counted)


def _cores(ctx: Ctx, counted: list[Gpu]) -> None:
    r = ctx.r
    w = ctx.workload
    cpu = r.cpu
    if cpu is None or not counted or w is None or w.task != "train":
        return
    cores = cpu.cores * max(r.cpu_count, 1)
    need = CORES_PER_GPU * len(counted)
    if cores < need:
        ctx.add("BAL-1", "warning", "G 四.2", QT_TRANSLATE_NOOP(
            "rules",
            "{cores} CPU cores for {n} GPU(s): data loading wants {workers} DataLoader workers per GPU plus the "
            "training process, {need} cores; the GPUs will wait for data."),
            {"cores": cores, "gpus": len(counted), "needed": need, "workers_per_gpu": LOADER_WORKERS_PER_GPU},
            guide="启用多线程数据加载（num_workers≥4）", cores=cores, n=len(counted),
            workers=LOADER_WORKERS_PER_GPU, need=need)


def _channels(ctx: Ctx) -> None:
    r = ctx.r
    cpu, board = r.cpu, r.board
    if cpu is None or not r.memory:
        return
    cpus = max(r.cpu_count, 1)
    per_cpu = r.modules // cpus
    reachable = cpu.memory_channels
    if board is not None:
        reachable = min(reachable, max(board.memory_slots // max(board.sockets, 1), 1))
    filled = min(per_cpu, reachable)
    if filled >= reachable:
        return
    share = filled / cpu.memory_channels
    ctx.add("BAL-2", "warning", "vendor specs", QT_TRANSLATE_NOOP(
        "rules",
        "{modules} memory module(s) per CPU fill {filled} of {cpu}'s {channels} memory channels: {share:.1%} of its "
        "memory bandwidth. Fit {reach} modules (one per channel) for all of it."),
        {"modules_per_cpu": per_cpu, "channels_filled": filled, "channels": cpu.memory_channels,
         "bandwidth_share": round(share, 3)},
        modules=per_cpu, filled=filled, cpu=cpu.name, channels=cpu.memory_channels, share=share, reach=reachable)


def _ram_vs_vram(ctx: Ctx, counted: list[Gpu]) -> None:
    r = ctx.r
    if not counted or not r.memory:
        return
    vram = sum(g.vram_gb for g in counted)
    if r.ram_gb < vram:
        ctx.add("BAL-3", "warning", "common practice", QT_TRANSLATE_NOOP(
            "rules",
            "{ram} GiB of RAM for {vram} GiB of VRAM: host RAM should be at least the GPUs' total VRAM, so pinned "
            "buffers, checkpoints and a host copy of what the GPUs hold fit (common practice; Tim Dettmers' "
            "hardware guide asks for at least the largest GPU's memory: {url})."),
            {"ram_gb": r.ram_gb, "vram_gb": vram, "source": BAL3_SOURCE}, ram=r.ram_gb, vram=vram,
            url=BAL3_SOURCE)
