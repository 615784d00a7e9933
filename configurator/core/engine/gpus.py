"""Which of the build's GPUs the estimates count: those PyTorch can use, those seated in a slot or on a
baseboard; and the drives that take an M.2 connector (the slot layout needs them)."""

from __future__ import annotations

from configurator.core.build import Resolved
from configurator.core.estimate import interconnect as ic
from configurator.core.parts import Gpu, Storage
from configurator.core.pcie import Placement


def usable_gpus(r: Resolved) -> list[Gpu]:
    """GPUs PyTorch can use: NVIDIA cards and AMD cards that current ROCm supports."""
    return [g for g in r.gpu_list if g.vendor == "nvidia" or g.rocm_supported]


def m2_drives(r: Resolved) -> list[Storage]:
    """Drives that go in an M.2 connector, one entry per drive."""
    return [s for s, q in r.storage if s.form_factor.startswith("M.2") for _ in range(q)]


def counted_gpus(r: Resolved, placement: Placement | None) -> list[Gpu]:
    """The GPUs that can run and PyTorch can use: cards seated in a slot (all of them while no board is
    chosen) and modules on a baseboard that takes them (PCI-8), as many as it has sockets."""
    room = sum(p.gpu_slots for p in r.platforms)
    seated = placement.placed_indexes if placement is not None else None
    out: list[Gpu] = []
    for i, g in enumerate(r.gpu_list):
        if g.form_factor == "pcie":
            if seated is None or i in seated:
                out.append(g)
        elif room > 0 and any(ic.takes_module(p, g) for p in r.platforms):
            out.append(g)
            room -= 1
    return [g for g in out if g.vendor == "nvidia" or g.rocm_supported]
