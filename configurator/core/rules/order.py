"""The order the engine runs the rule families' checks in (one module per rule-ID prefix: bud.py holds
BUD-*, pwr.py PWR-*, …). The engine sorts the findings by severity and keeps this order within a
severity, so it is the order the user reads: change it only on purpose."""

from __future__ import annotations

from configurator.core.rules import bal, bud, comp, cpu, cud, fit, gpu, pci, pwr, ram, sto, therm
from configurator.core.rules.shared import Check, Ctx

CHECKS: tuple[Check, ...] = (
    bud.budget,  # BUD-1, BUD-2, BUD-3, BUD-4
    pwr.power,  # PWR-2, PWR-5, PWR-1, PWR-3
    pci.pcie,  # PCI-2, PCI-3, PCI-1, PCI-4, PCI-5, PCI-7, PCI-6
    pci.baseboard,  # PCI-8
    pci.sockets,  # PCI-9
    pci.m2,  # PCI-10
    fit.drive_bays,  # FIT-7
    pci.p2p,  # PCI-11
    pci.bridge_spacing,  # PCI-12
    comp.compat,  # COMP-1, COMP-5, COMP-2, COMP-3, COMP-4
    therm.cooling,  # THERM-1, THERM-2
    fit.psu_form_factor,  # FIT-4
    fit.board_size,  # FIT-5
    fit.cpu_cooler,  # FIT-6
    bal.cores_per_gpu,  # BAL-1
    bal.channels,  # BAL-2
    bal.ram_vs_vram,  # BAL-3
    bal.storage,  # BAL-4
    cud.software,  # CUD-1..4, CUD-6, CUD-7
    gpu.card,  # GPU-1..5, GPU-7
    cpu.processor,  # CPU-1..6
    fit.host_ram,  # FIT-2
    ram.capacity,  # RAM-1..3
    sto.storage,  # STO-1..5
    fit.dataset,  # FIT-3
    fit.vram,  # FIT-1
    ram.reduce,  # RAM-4, after FIT-1
)

# What the engine runs after the estimates, which it reads: PWR-4's throughput per watt.
AFTER_ESTIMATES = (pwr.per_watt,)


def run(ctx: Ctx) -> None:
    """Every check of CHECKS, in order."""
    for check in CHECKS:
        check(ctx)
