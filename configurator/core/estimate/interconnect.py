"""How GPUs in one machine exchange gradients: NVLink bridges and their slot spacings (PCI-4,
PCI-12), GPU baseboards (PCI-8), PCIe peer-to-peer and the host-memory path without it (PCI-11)."""

from __future__ import annotations

from configurator.core.parts import Gpu, Platform

# PCI-12: the slot spacings (distance between the two cards' slot positions) NVIDIA's bridges come in.
# GA102/TU102 cards: the RTX A6000 NVLink HB bridge is made in 2- and 3-slot spacing, the GeForce RTX
# 3090 bridge in 3- and 4-slot spacing; Puget Systems tested both on the RTX 3090 and RTX A6000
# (https://www.pugetsystems.com/labs/articles/NVIDIA-NVLink-2021-Update-and-Compatibility-Chart-2074/).
# Turing's (RTX 2080 Ti) bridges have another connector: GeForce RTX 3- and 4-slot, Quadro RTX 2- and
# 3-slot. Data-centre PCIe cards (A100, H100, H200 NVL) use NVIDIA's 2- and 3-slot data-centre bridges
# (product briefs of the A100 PCIe and H100 PCIe).
_GA102 = (2, 3, 4)
NVLINK_BRIDGE_SLOTS: dict[str, tuple[int, ...]] = {
    "nvidia-rtx-2080-ti": (2, 3, 4),
    "nvidia-rtx-3090": _GA102,
    "nvidia-rtx-3090-ti": _GA102,
    "nvidia-rtx-a4500": _GA102,
    "nvidia-rtx-a5000": _GA102,
    "nvidia-rtx-a6000": _GA102,
    "nvidia-a100-40gb-pcie": (2, 3),
    "nvidia-a100-80gb-pcie": (2, 3),
    "nvidia-h100-pcie": (2, 3),
    "nvidia-h200-nvl": (2, 3),
}

# PCI-11: NVIDIA does not enable PCIe peer-to-peer on GeForce RTX 40 (Ada) and 50 (Blackwell) cards;
# NCCL then stages every transfer through a pinned buffer in host memory (its SHM transport).
NO_P2P_ARCHITECTURES = ("Ada Lovelace", "Blackwell")
# Through host memory each byte is written by one GPU and read back by the other, and the copies are
# not overlapped as a direct peer write is: taken as half the one-way PCIe rate (an assumption of
# this model, stated where it is used).
HOST_PATH_SHARE = 0.5


def has_p2p(gpu: Gpu) -> bool:
    """False for GeForce RTX 40/50 cards (PCI-11)."""
    return not (gpu.vendor == "nvidia" and "GeForce" in gpu.name and gpu.architecture in NO_P2P_ARCHITECTURES)


def bridge_spacings(gpu: Gpu) -> tuple[int, ...] | None:
    """The slot spacings of the NVLink bridges for this card; None when not known (a custom part)."""
    return NVLINK_BRIDGE_SLOTS.get(gpu.id)


def takes_module(platform: Platform, gpu: Gpu) -> bool:
    """A baseboard takes modules of its form factor and architecture (HGX H100 also takes H200 modules)."""
    return gpu.form_factor == platform.module_form_factor and gpu.architecture in platform.architectures


def pcie_bytes_per_s(gen: int, lanes: int) -> float:
    """One direction: about 0.985 GB/s per lane at Gen3, doubling per generation."""
    return float(0.985e9 * 2 ** (gen - 3) * lanes)


def host_path_bytes_per_s(link: float, host_memory_bytes_per_s: float | None, gpus: int) -> float:
    """All-reduce bandwidth per GPU without peer-to-peer: :data:`HOST_PATH_SHARE` of the PCIe link, and
    no more than the host memory gives when every GPU writes and reads its share at once."""
    path = link * HOST_PATH_SHARE
    if host_memory_bytes_per_s:
        path = min(path, host_memory_bytes_per_s / (2 * max(gpus, 1)))
    return path


def platform_bytes_per_s(platform: Platform) -> float:
    """One direction of a module's NVLink on its baseboard."""
    return platform.nvlink_gbs_per_gpu / 2 * 1e9
