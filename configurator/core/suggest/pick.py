"""The answer from the builds a search found: the winner (the best score's tie band, cheapest, then the
simpler build with fewer GPUs), its top reasons and binding constraint, and the alternatives with other GPU
options and what each trades against the winner."""

from __future__ import annotations

from typing import TYPE_CHECKING

from configurator.core.i18n import Message
from configurator.core.suggest.explain import binding, reasons, trade
from configurator.core.suggest.score import penalties
from configurator.core.suggest.serve import served
from configurator.core.suggest.space import TIE
from configurator.core.suggest.suggestion import Found, Suggestion
from configurator.core.suggest.upgrade import upgrade

if TYPE_CHECKING:
    from configurator.core.suggest.search import Search

# A build with fewer GPUs (one bigger card instead of two, one supply instead of a bigger one) wins over a
# cheaper or equally scored one with more when it costs at most this much more: the simpler build an
# expert takes (fewer cards to fit, cool and power, no multi-GPU scaling to rely on).
SIMPLER = 0.03


def pick(search: Search, found: list[Found], alternatives: int, strategy: Message | None) -> list[Suggestion]:
    if not found:
        return []
    if search.prefs.goal == "cheapest":
        ranked = sorted(found, key=lambda f: (f.price, f.order()))
        # The simpler build: fewer GPUs (one bigger card, one supply) where it costs at most SIMPLER more.
        near = [f for f in ranked if f.price <= ranked[0].price * (1 + SIMPLER)]
        winner = min(near, key=lambda f: (f.cfg.n, f.price, f.ids))
        band = [winner]
    else:
        best = max(f.score for f in found)
        band = [f for f in found if f.score >= (1 - TIE) * best]
        cheapest = min(f.price for f in band)
        winner = min((f for f in band if f.price <= cheapest * (1 + SIMPLER)), key=lambda f: (f.cfg.n, f.price, f.ids))
        ranked = sorted(found, key=lambda f: f.order())
    upgraded: list[Message] = []
    if search.prefs.goal != "cheapest" and search.prefs.upgrade:
        winner, upgraded = upgrade(search, winner)
    rest: list[Found] = []
    used = {winner.cfg.gkey}
    for f in ranked:
        if f.cfg.gkey in used:
            continue
        used.add(f.cfg.gkey)
        rest.append(f)
        if len(rest) >= alternatives:
            break
    unit = search.w.throughput_unit
    target = search.serve
    top = Suggestion(winner.build, winner.report, winner.throughput, unit, winner.cfg.gkey, winner.score,
                     penalties(winner.report.findings), (*reasons(search, winner, band, strategy), *upgraded),
                     binding(search, winner), strategy, served(winner.report, target) if target else None)
    return [top, *(Suggestion(f.build, f.report, f.throughput, unit, f.cfg.gkey, f.score,
                              penalties(f.report.findings), (trade(winner, f),), None, strategy,
                              served(f.report, target) if target else None) for f in rest)]
