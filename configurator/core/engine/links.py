"""The GPUs' surroundings an estimate needs: the all-reduce link between the counted GPUs (NVLink on a
baseboard, bridges, PCIe peer-to-peer or through host memory), the host memory's bandwidth, and the
:class:`~configurator.core.estimate.throughput.System` one GPU's estimate is made in."""

from __future__ import annotations

from configurator.core.build import Resolved, Workload
from configurator.core.engine.report import message as _m
from configurator.core.estimate import interconnect as ic
from configurator.core.estimate import throughput as tp
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import Gpu
from configurator.core.rules.shared import Ctx


def host_memory_bytes_per_s(r: Resolved) -> float | None:
    """Peak host memory bandwidth: populated channels × transfer rate × 8 bytes × CPUs."""
    cpu = r.cpu
    if cpu is None:
        return None
    mts = min((m.speed_mts for m, _q in r.memory), default=cpu.memory_max_mts) or cpu.memory_max_mts
    mts = min(mts, cpu.memory_max_mts) if cpu.memory_max_mts else mts
    per_cpu = max(r.modules // max(r.cpu_count, 1), 1) if r.memory else cpu.memory_channels
    channels = min(cpu.memory_channels, per_cpu)
    return float(channels * mts * 1e6 * 8 * max(r.cpu_count, 1))


def build_system(ctx: Ctx, placed: list[Gpu], w: Workload) -> tp.System:
    """The rest of the build as one GPU's estimate needs it: the GPUs a parallel model spans and their link
    (NVLink, PCIe peer-to-peer, or through host memory), the host memory's bandwidth (offload)."""
    host = host_memory_bytes_per_s(ctx.r)
    if len(placed) > 1 and w.task == "infer" and w.parallel != "none":
        link, _name, path = allreduce_link(ctx, placed, min(placed, key=lambda g: g.memory_bandwidth_gbs))
        return tp.System(len(placed), link, path, host)
    return tp.System(1, None, "pcie", host)


_BOARD_LINKS = {
    "nvswitch": QT_TRANSLATE_NOOP("estimates", "NVLink ({gbs:g} GB/s per GPU, through NVSwitch)"),
    "direct": QT_TRANSLATE_NOOP("estimates", "NVLink ({gbs:g} GB/s per GPU, direct links)"),
}
_VIA_HOST = QT_TRANSLATE_NOOP("estimates", "{name} via host memory")


def allreduce_link(ctx: Ctx, placed: list[Gpu], slowest: Gpu) -> tuple[float, Message | str, str]:
    """The all-reduce link per GPU (bytes/s one way), its name (a message where it has words), and its path:
    "baseboard" (NVLink on an HGX board), "nvlink" (bridges), "host" (no peer-to-peer: through host memory)
    or "pcie"."""
    r = ctx.r
    n = len(placed)
    boards = [p for p in r.platforms if all(ic.takes_module(p, g) for g in placed)]
    if boards and all(g.form_factor != "pcie" for g in placed):
        p = boards[0]
        return ic.platform_bytes_per_s(p), _m(_BOARD_LINKS[p.topology], gbs=p.nvlink_gbs_per_gpu), "baseboard"
    if r.build.options.nvlink_bridge and all(g.nvlink for g in placed) and n <= (placed[0].nvlink_max_gpus or 2):
        return tp.link_bytes_per_s(slowest, None, None, True), "NVLink", "nvlink"
    seats = ctx.placement.seats if ctx.placement else ()
    gen = min((s.gen for s in seats), default=slowest.pcie_gen)
    lanes = min((s.lanes for s in seats), default=slowest.pcie_lanes)
    pcie = ic.pcie_bytes_per_s(gen, lanes)
    name = f"PCIe Gen{gen} x{lanes}"
    if not all(ic.has_p2p(g) for g in placed):
        return ic.host_path_bytes_per_s(pcie, host_memory_bytes_per_s(r), n), _m(_VIA_HOST, name=name), "host"
    return pcie, name, "pcie"
