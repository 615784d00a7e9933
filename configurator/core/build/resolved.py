"""A build's parts looked up in the catalogue and grouped by category (:func:`resolve`, :class:`Resolved`):
what the rules and the estimates read (the GPUs one by one, the CPU, the board, the supplies' watts …)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from configurator.core.build.records import Build, BuildPart
from configurator.core.parts import AnyPart, Case, Cooler, Cpu, Gpu, Memory, Motherboard, Platform, Psu, Storage


@dataclass(frozen=True)
class Resolved:
    """A build's parts looked up in the catalogue and grouped by category."""

    build: Build
    gpus: tuple[tuple[Gpu, int, bool], ...]
    cpus: tuple[tuple[Cpu, int], ...]
    boards: tuple[Motherboard, ...]
    memory: tuple[tuple[Memory, int], ...]
    storage: tuple[tuple[Storage, int], ...]
    psus: tuple[Psu, ...]
    cases: tuple[Case, ...]
    items: tuple[tuple[AnyPart, BuildPart], ...]
    coolers: tuple[tuple[Cooler, int], ...] = ()
    platforms: tuple[Platform, ...] = ()

    @property
    def gpu_list(self) -> list[Gpu]:
        return [g for g, qty, _used in self.gpus for _ in range(qty)]

    @property
    def cpu(self) -> Cpu | None:
        return self.cpus[0][0] if self.cpus else None

    @property
    def cpu_count(self) -> int:
        return sum(q for _c, q in self.cpus)

    @property
    def board(self) -> Motherboard | None:
        return self.boards[0] if self.boards else None

    @property
    def psu(self) -> Psu | None:
        return self.psus[0] if self.psus else None

    @property
    def case(self) -> Case | None:
        return self.cases[0] if self.cases else None

    @property
    def psu_watts(self) -> int:
        """What the supplies deliver together (PWR-5): their ratings add up, except that an N+1 redundant
        set of modules keeps one module spare (two 2000 W modules in 1+1 deliver 2000 W)."""
        plain = sum(p.watts for p in self.psus if not p.redundant)
        modules = sorted((p.watts for p in self.psus if p.redundant), reverse=True)
        return plain + sum(modules[1:] if len(modules) > 1 else modules)

    @property
    def platform(self) -> Platform | None:
        return self.platforms[0] if self.platforms else None

    @property
    def module_gpus(self) -> list[Gpu]:
        """SXM/OAM modules: they sit on a baseboard, not in PCIe slots (PCI-8)."""
        return [g for g in self.gpu_list if g.form_factor != "pcie"]

    @property
    def ram_gb(self) -> int:
        return sum(m.capacity_gb * q for m, q in self.memory)

    @property
    def modules(self) -> int:
        return sum(m.modules * q for m, q in self.memory)


def resolve(build: Build, catalogue: Mapping[str, AnyPart]) -> Resolved:
    gpus: list[tuple[Gpu, int, bool]] = []
    cpus: list[tuple[Cpu, int]] = []
    boards: list[Motherboard] = []
    memory: list[tuple[Memory, int]] = []
    storage: list[tuple[Storage, int]] = []
    psus: list[Psu] = []
    cases: list[Case] = []
    coolers: list[tuple[Cooler, int]] = []
    items: list[tuple[AnyPart, BuildPart]] = []
    platforms: list[Platform] = []
    for bp in build.parts:
        part = catalogue[bp.id]
        items.append((part, bp))
        if isinstance(part, Gpu):
            gpus.append((part, bp.qty, bp.used))
        elif isinstance(part, Cpu):
            cpus.append((part, bp.qty))
        elif isinstance(part, Motherboard):
            boards.extend([part] * bp.qty)
        elif isinstance(part, Memory):
            memory.append((part, bp.qty))
        elif isinstance(part, Storage):
            storage.append((part, bp.qty))
        elif isinstance(part, Psu):
            psus.extend([part] * bp.qty)
        elif isinstance(part, Case):
            cases.extend([part] * bp.qty)
        elif isinstance(part, Cooler):
            coolers.append((part, bp.qty))
        elif isinstance(part, Platform):
            platforms.extend([part] * bp.qty)
    return Resolved(build, tuple(gpus), tuple(cpus), tuple(boards), tuple(memory), tuple(storage),
                    tuple(psus), tuple(cases), tuple(items), tuple(coolers), tuple(platforms))
