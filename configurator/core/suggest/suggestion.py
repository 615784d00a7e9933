"""What Suggest answers and what its search finds: :class:`Suggestion` (a suggested build with its check,
throughput, score, penalties, reasons and, for a serving target, what it serves) and :class:`Found` (a
configuration completed and checked during the search); :func:`report_score`, a checked build's score."""

from __future__ import annotations

from dataclasses import dataclass

from configurator.core.build import Build, Workload
from configurator.core.engine import Report
from configurator.core.i18n import Message
from configurator.core.suggest.score import Penalty, factor, warning_rules
from configurator.core.suggest.serve import Served
from configurator.core.suggest.space import Config, report_throughput


@dataclass(frozen=True)
class Suggestion:
    build: Build
    report: Report
    throughput: float
    unit: str
    gpu: tuple[str, int]  # (GPU id or "-", count)
    score: float = 0.0  # throughput times the penalties' factors
    penalties: tuple[Penalty, ...] = ()
    reasons: tuple[Message, ...] = ()  # the winner: its top reasons; an alternative: what it trades
    binding: Message | None = None  # the winner: what stops a faster build
    strategy: Message | None = None  # how the workload was made to fit (FSDP, LoRA), if it was changed
    serving: Served | None = None  # a serving target (suggest.serve): what the build serves at its load

    @property
    def total_cny(self) -> int:
        return self.report.total_cny

    @property
    def workload(self) -> Workload | None:
        return self.build.workload

    def key(self) -> tuple[int, tuple[str, ...]]:
        return self.total_cny, tuple(sorted(p.id for p in self.build.parts))


def report_score(report: Report) -> float:
    """A checked build's score: its throughput times its warnings' penalties."""
    return report_throughput(report) * factor(warning_rules(report.findings))

@dataclass
class Found:
    cfg: Config
    build: Build
    report: Report  # the engine's full check
    price: int
    ids: tuple[str, ...]
    throughput: float
    score: float

    def order(self) -> tuple[float, int, tuple[str, ...]]:
        return (-self.score, self.price, self.ids)

