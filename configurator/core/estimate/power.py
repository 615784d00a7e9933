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
# ATX 3.x supplies (Intel's ATX 3.0 PSU Design Guide, power excursion): a supply rated P must carry 2 × P
# for 100 µs, and the PCIe add-in-card rail is tested with load steps from 100 % to 300 % of the cards'
# power. So a card may briefly draw 3 × its board power (2 × more than sustained) and the supply rides it
# out if sustained + 2 × GPU power <= 2 × P, i.e. P >= sustained / 2 + GPU power. The headroom above the
# sustained draw is then max(0, GPU power - sustained / 2), usually less than 30 % of the GPUs' power.
ATX3_EXCURSION_LIMIT = 2.0  # × the rating, for 100 µs
ATX3_CARD_EXCURSION = 3.0  # × a card's board power (the add-in-card step, 100 % -> 300 %)


def is_atx3(version: str | None) -> bool:
    """ATX 3.0, 3.1 and later: specified for power excursions."""
    if not version:
        return False
    try:
        return float(version.split(".")[0]) >= 3
    except ValueError:
        return False


@dataclass(frozen=True)
class PowerEstimate:
    gpu_w: int
    cpu_w: int
    platform_w: int
    transient_w: int
    atx3: bool = False  # every supply is ATX 3.x: the headroom is the excursion rule's, not 30 %

    @property
    def sustained_w(self) -> int:
        return self.gpu_w + self.cpu_w + self.platform_w

    @property
    def peak_w(self) -> int:
        return self.sustained_w + self.transient_w

    @property
    def formula(self) -> Message:
        if self.atx3:
            return Message("estimates", QT_TRANSLATE_NOOP(
                "estimates",
                "{gpu} W GPUs + {cpu} W CPU (maximum power) + {platform} W platform + {transient} W transient "
                "headroom = {peak} W. The ATX 3.x supply is specified to carry 200 % of its rating for 100 µs, "
                "so the GPUs' excursions to 3 × board power need only max(0, GPU power − half the sustained "
                "draw) above the sustained draw (ATX 3.0 PSU Design Guide)"),
                {"gpu": self.gpu_w, "cpu": self.cpu_w, "platform": self.platform_w,
                 "transient": self.transient_w, "peak": self.peak_w})
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
    if r.psus and all(is_atx3(p.atx_version) for p in r.psus):
        sustained = gpu + cpu + platform
        excursion = gpu * (ATX3_CARD_EXCURSION - 1)  # above the sustained draw, for 100 µs
        need = (sustained + excursion) / ATX3_EXCURSION_LIMIT
        return PowerEstimate(gpu, cpu, platform, max(0, round(need - sustained)), atx3=True)
    return PowerEstimate(gpu, cpu, platform, round(gpu * TRANSIENT_FRACTION))


@dataclass(frozen=True)
class MeasuredPower:
    """What the machine drew, measured (a monitor recording's energy, a benchmark's joules): PWR-4 and
    BUD-3 use it for the machine it was measured on. The caller passes the numbers; core reads no file."""

    mean_w: float  # the average over the run: GPUs (NVML), and the CPU packages where ``cpu``
    peak_w: float | None = None
    cpu: bool = False  # the CPU packages are in it (RAPL); else the CPU's TDP is added as an estimate
    source: Message | None = None  # where it was measured ("recording run.csv"), for the finding's text


def measured_draw_w(r: Resolved, m: MeasuredPower) -> tuple[int, int]:
    """(the draw while training, of which the estimated rest): the measured watts plus the platform
    (board, memory, drives, fans), which nothing measures, and the CPU where RAPL was not read."""
    rest = estimate_power(r).platform_w + (0 if m.cpu else sum(c.tdp_w * q for c, q in r.cpus))
    return round(m.mean_w) + rest, rest


def training_draw_w(r: Resolved) -> int:
    """Average draw while training (for the electricity bill): GPUs at board power, CPU at TDP."""
    gpu = sum(g.board_power_w * q for g, q, _u in r.gpus)
    cpu = sum(c.tdp_w * q for c, q in r.cpus)
    return gpu + cpu + estimate_power(r).platform_w
