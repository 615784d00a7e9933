"""Power draw of a build (PWR-2): the figures and the formula the planner shows."""

from __future__ import annotations

from dataclasses import dataclass

from configurator.core.build import Resolved
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message

# Platform allowances (W), typical vendor figures: board and chipset, per memory module,
# per drive, fans and pump. Stated in the UI with the formula.
BOARD_W = 50
MODULE_W = {"DDR4": 4, "DDR5": 6}
DRIVE_W = {"nvme": 8, "sata_ssd": 4, "hdd": 9}
FANS_W = 20
# GPU transients: Ampere/Ada cards spike well above their board power for milliseconds;
# sizing adds 30 % of the GPUs' board power on top of the sustained draw.
TRANSIENT_FRACTION = 0.3


@dataclass(frozen=True)
class PowerEstimate:
    gpu_w: int
    cpu_w: int
    platform_w: int
    transient_w: int

    @property
    def sustained_w(self) -> int:
        return self.gpu_w + self.cpu_w + self.platform_w

    @property
    def peak_w(self) -> int:
        return self.sustained_w + self.transient_w

    @property
    def formula(self) -> Message:
        return Message("estimates", QT_TRANSLATE_NOOP(
            "estimates",
            "{gpu} W GPUs + {cpu} W CPU (maximum power) + {platform} W platform + {transient} W transient "
            "headroom (30 % of GPU board power) = {peak} W"),
            {"gpu": self.gpu_w, "cpu": self.cpu_w, "platform": self.platform_w, "transient": self.transient_w,
             "peak": self.peak_w})


def estimate_power(r: Resolved) -> PowerEstimate:
    gpu = sum(g.board_power_w * q for g, q, _u in r.gpus)
    cpu = sum(c.max_power_w * q for c, q in r.cpus)
    # Board and fans are counted once the build has a board (or, without one, any part that needs them).
    platform = BOARD_W * len(r.boards) + (FANS_W if r.items else 0)
    if not r.boards and (r.gpus or r.cpus):
        platform += BOARD_W
    platform += sum(MODULE_W.get(m.memory_type, 5) * m.modules * q for m, q in r.memory)
    platform += sum(DRIVE_W.get(s.kind, 8) * q for s, q in r.storage)
    return PowerEstimate(gpu, cpu, platform, round(gpu * TRANSIENT_FRACTION))


def training_draw_w(r: Resolved) -> int:
    """Average draw while training (for the electricity bill): GPUs at board power, CPU at TDP."""
    gpu = sum(g.board_power_w * q for g, q, _u in r.gpus)
    cpu = sum(c.tdp_w * q for c, q in r.cpus)
    return gpu + cpu + estimate_power(r).platform_w
