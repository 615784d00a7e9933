"""Typed part records, one dataclass per category, and their validation.

The records are plain data: the store turns database rows into them, the
engine reads them, the CLI prints them flat (``dataclasses.asdict``).
Validation (``part_from_dict``) reports every bad field with its path and a
translatable message template, so the catalogue loader, the CSV import and the
custom-part dialog all say the same thing about the same mistake.

Units are in the field names: GiB for VRAM and RAM (as vendors market them),
decimal GB for storage, W, MHz/GHz, mm, GB/s, MB/s, TFLOPS/TOPS, CNY.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal, Union

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.schema import (
    DECIMAL_1,
    GHZ,
    MB,
    THROUGHPUT,
    Count,
    Flag,
    Number,
    Positive,
    PositiveNumber,
    Problem,
    Schema,
    SchemaError,
    Text,
    Unit,
    int_fields,
    json_key,
    record,
    units,
)

CATEGORIES: tuple[str, ...] = ("gpu", "cpu", "motherboard", "memory", "storage", "psu", "case", "cooler",
                             "platform")

CATEGORY_LABELS: dict[str, str] = {
    "gpu": QT_TRANSLATE_NOOP("parts", "GPU"),
    "cpu": QT_TRANSLATE_NOOP("parts", "CPU"),
    "motherboard": QT_TRANSLATE_NOOP("parts", "Motherboard"),
    "memory": QT_TRANSLATE_NOOP("parts", "Memory"),
    "storage": QT_TRANSLATE_NOOP("parts", "Storage"),
    "psu": QT_TRANSLATE_NOOP("parts", "Power supply"),
    "case": QT_TRANSLATE_NOOP("parts", "Case"),
    "cooler": QT_TRANSLATE_NOOP("parts", "CPU cooler"),
    "platform": QT_TRANSLATE_NOOP("parts", "GPU baseboard"),
}

ID_RE = re.compile(r"^[a-z0-9]+(?:[-.][a-z0-9]+)*$")
DATE_RE = re.compile(r"^\d{4}-\d{2}(?:-\d{2})?$")
MEMORY_TYPES = ("DDR4", "DDR5")
# The longest id and name a part may have (the database's columns; a shop's file is checked on import).
MAX_ID = 128
MAX_NAME = 200


@record
@dataclass(frozen=True, kw_only=True)
class PcieSlot:
    """One expansion slot of a motherboard.

    ``position`` counts expansion-slot positions from the top of the board
    (1 = nearest the CPU) on the 20.32 mm ATX pitch, so a card ``n`` slots wide
    in position ``p`` covers positions ``p`` .. ``p + ceil(n) - 1``.
    """

    name: Text
    position: Positive
    physical_lanes: Positive
    electrical_lanes: Positive
    gen: Positive
    source: Annotated[Literal["cpu", "chipset"], json_key("from")]  # JSON/CSV key "from" (a Python keyword)
    shares_with: list[Text] = field(default_factory=list)
    socket: Positive = 1  # the CPU socket whose lanes feed it (PCI-9: dead without that CPU); chipset slots: 1


@record
@dataclass(frozen=True, kw_only=True)
class M2Slot:
    """An M.2 connector. ``shares_with`` names what it takes lanes from (PCIe slots, SATA ports);
    ``slot_lanes_when_used`` is, per the board's manual, the lanes the x16-length PCIe slots named
    there keep while this connector holds a drive (0: the slot is off; None: no such slot loses
    lanes, e.g. only SATA ports or x1 slots are shared). PCI-10."""

    name: Text
    gen: Positive
    lanes: Positive
    source: Annotated[Literal["cpu", "chipset"], json_key("from")]  # JSON/CSV key "from" (a Python keyword)
    shares_with: list[Text] = field(default_factory=list)
    slot_lanes_when_used: Count | None = None
    socket: Positive = 1


def today_iso() -> str:
    """Today's date as a price date (2026-11-29): the price date of a part that gives none."""
    return datetime.date.today().isoformat()


# A user's own part gives only what the rules and estimates need: the fields below that have a default may
# be left out (a CSV cell left empty, a key left out) and take it. The shipped catalogue states every one
# of them (tests/core/test_parts.py holds it to that).
@record
@dataclass(frozen=True, kw_only=True)
class Part:
    """Fields every part has. ``custom`` and ``user_edited`` are set by the store."""

    category: ClassVar[str] = ""

    id: Text
    name: Text
    brand: Text = ""
    price_cny: Annotated[Count, Unit("¥")]
    price_date: Text = field(default_factory=today_iso)  # the day it was entered
    # Where the figures come from: a spec page's URL (the catalogue's), or any text for a user's own part
    # ("my card, measured", "seller's listing"); a URL is checked to be one.
    source: Text = ""
    launch_year: Count | None = None
    notes: Text | None = None
    # Figures not found on the vendor's page or manual (field names of this part): shown marked, and a
    # finding that rests on one says to check the vendor's figure (rules.shared.Ctx.add's rests_on).
    unverified: list[Text] = field(default_factory=list)
    custom: Flag = False
    user_edited: Flag = False


@record
@dataclass(frozen=True, kw_only=True)
class Gpu(Part):
    category: ClassVar[str] = "gpu"

    vendor: Literal["nvidia", "amd", "intel"]
    architecture: Text = ""  # "Ampere"; empty: unknown, estimates use no architecture's own efficiency
    compute_capability: Text | None = None  # NVIDIA "8.6"; None for AMD/Intel
    gfx_target: Text | None = None  # AMD LLVM target, e.g. "gfx1100"
    form_factor: Literal["pcie", "sxm", "oam"] = "pcie"
    # The price is a used-market estimate (a discontinued card): Suggest offers it only when asked to
    # (SuggestOptions.allow_used), and marks it used in the build (BUD-4).
    used_market: Flag = False
    vram_gb: Annotated[Positive, Unit("GiB")]
    vram_type: Text = ""  # "GDDR6X"; empty: not given
    memory_bandwidth_gbs: Annotated[PositiveNumber, THROUGHPUT, Unit("GB/s")]
    fp32_tflops: Annotated[PositiveNumber, THROUGHPUT, Unit("TFLOPS")]
    tensor_cores: Flag
    # dense, FP32 accumulate where vendors give both
    fp16_tensor_tflops: Annotated[Number, THROUGHPUT, Unit("TFLOPS")] | None = None
    bf16_tensor_tflops: Annotated[Number, THROUGHPUT, Unit("TFLOPS")] | None = None
    int8_tops: Annotated[Number, THROUGHPUT, Unit("TOPS")] | None = None
    board_power_w: Annotated[Positive, Unit("W")]
    recommended_psu_w: Annotated[Count, Unit("W")] | None = None
    power_8pin: Count = 0
    power_12v2x6: Count = 0  # 16-pin 12VHPWR / 12V-2x6 connectors
    power_adapter_8pin: Count | None = None  # 8-pin inputs the bundled 16-pin adapter needs
    power_eps8: Count = 0  # data-centre cards that take a CPU (EPS) 8-pin
    pcie_gen: Count
    pcie_lanes: Positive
    # None for SXM/OAM modules
    slot_width: Annotated[Number, DECIMAL_1, Unit(QT_TRANSLATE_NOOP("parts", "slots"))] | None = None
    length_mm: Annotated[Count, Unit("mm")] | None = None
    # open_air: axial fans that blow into the case (THERM-2: needs a free slot above the next card);
    # blower: a radial fan exhausting through the bracket (stacks); passive: a heatsink only, cooled by
    # the chassis's forced front-to-back airflow (THERM-1). From the vendor's product page or brief.
    # Not given: open_air, the common card's, for which THERM-2 asks the most room.
    cooling: Literal["open_air", "blower", "passive"] = "open_air"
    nvlink: Flag = False
    nvlink_bandwidth_gbs: Annotated[Number, THROUGHPUT, Unit("GB/s")] | None = None  # total, both directions
    nvlink_max_gpus: Count | None = None  # 2 for a 2-way bridge
    min_driver: Text | None = None  # Linux driver version
    min_cuda: Text | None = None
    rocm_supported: Flag | None = None


@record
@dataclass(frozen=True, kw_only=True)
class Cpu(Part):
    category: ClassVar[str] = "cpu"

    vendor: Literal["intel", "amd"]
    architecture: Text = ""
    socket: Text
    cores: Positive
    p_cores: Count | None = None  # hybrid designs: performance cores (with SMT); the rest are E-cores
    threads: Positive
    base_ghz: Annotated[PositiveNumber, GHZ, Unit("GHz")]
    boost_ghz: Annotated[PositiveNumber, GHZ, Unit("GHz")]
    l3_mb: Annotated[Number, MB, Unit("MB")]
    tdp_w: Annotated[Positive, Unit("W")]
    max_power_w: Annotated[Positive, Unit("W")]
    boxed_cooler: Flag = False  # the retail box includes a cooler (FIT-6: a build without one is fine)
    pcie_gen: Count
    pcie_lanes: Positive
    memory_types: list[Text]
    memory_channels: Count
    memory_max_mts: Annotated[Count, Unit("MT/s")] = 0
    max_memory_gb: Annotated[Positive, Unit("GiB")]
    ecc: Flag
    rdimm: Flag
    avx512: Flag
    integrated_graphics: Flag = False
    max_sockets: Count = 1


@record
@dataclass(frozen=True, kw_only=True)
class Motherboard(Part):
    category: ClassVar[str] = "motherboard"

    socket: Text
    sockets: Count = 1
    chipset: Text
    form_factor: Text
    # FIT-5: width from the rear I/O edge towards the case front (ATX 244; "E-ATX" is 259-330 depending on
    # the vendor, which is what cases limit as "E-ATX up to 277 mm wide"); depth along the rear edge, top
    # to bottom (ATX, E-ATX and SSI-EEB 305, Micro-ATX 244, Mini-ITX 170).
    width_mm: Annotated[Count, Unit("mm")] | None = None
    depth_mm: Annotated[Count, Unit("mm")] | None = None
    memory_type: Text
    memory_slots: Positive
    max_memory_gb: Annotated[Positive, Unit("GiB")]
    ecc: Flag
    rdimm: Flag
    udimm: Flag = True  # False: registered DIMMs only (server and workstation boards)
    pcie_slots: list[PcieSlot]
    m2_slots: list[M2Slot] = field(default_factory=list)
    sata_ports: Count = 0


@record
@dataclass(frozen=True, kw_only=True)
class Memory(Part):
    category: ClassVar[str] = "memory"

    memory_type: Text
    capacity_gb: Annotated[Positive, Unit("GiB")]  # kit total, GiB
    modules: Positive
    speed_mts: Annotated[Positive, Unit("MT/s")]
    cas_latency: Count | None = None
    ecc: Flag
    rdimm: Flag


@record
@dataclass(frozen=True, kw_only=True)
class Storage(Part):
    category: ClassVar[str] = "storage"

    kind: Literal["hdd", "sata_ssd", "nvme"]
    capacity_gb: Annotated[Positive, Unit("GB")]  # decimal GB
    interface: Text
    pcie_gen: Count | None = None
    form_factor: Text
    seq_read_mbs: Annotated[Positive, Unit("MB/s")]
    seq_write_mbs: Annotated[Count, Unit("MB/s")]
    random_read_iops: Annotated[Count, Unit("IOPS")] | None = None


@record
@dataclass(frozen=True, kw_only=True)
class Psu(Part):
    category: ClassVar[str] = "psu"

    watts: Annotated[Positive, Unit("W")]
    efficiency: Text  # "80 PLUS Gold"
    form_factor: Text
    atx_version: Text | None = None  # "3.0", "3.1": specified for power excursions (PWR-2, PWR-5); None: older
    redundant: Flag = False  # a hot-swap module of an N+1 redundant set: one module's worth is spare
    pcie_8pin: Count
    connector_12v2x6: Count
    eps_8pin: Count
    modular: Literal["full", "semi", "none"] = "full"


@record
@dataclass(frozen=True, kw_only=True)
class Case(Part):
    category: ClassVar[str] = "case"

    form_factor: Text  # "Mid tower"
    max_gpu_length_mm: Annotated[Positive, Unit("mm")]
    expansion_slots: Count
    board_form_factors: list[Text]
    max_cpu_cooler_mm: Annotated[Count, Unit("mm")] | None = None
    psu_form_factors: list[Text] = field(default_factory=lambda: ["ATX"])  # FIT-4
    # FIT-5 (see Motherboard.width_mm); None: not published
    max_board_width_mm: Annotated[Count, Unit("mm")] | None = None
    max_board_depth_mm: Annotated[Count, Unit("mm")] | None = None
    # FIT-6: radiator sizes it mounts (240 = 2 x 120 mm); [] none; None: not published
    radiator_sizes_mm: Annotated[list[Count], Unit("mm")] | None = None
    server_airflow: Flag = False  # THERM-1: forced front-to-back airflow through the cards (server fan wall)
    psu_mounts: Count = 1  # FIT-4: power supplies it holds (redundant modules go in the chassis's own cage)

    bays_35: Count | None = None  # 3.5" drive bays (they also take 2.5" drives); None: not listed (FIT-7)
    bays_25: Count | None = None  # 2.5"-only mounts


@record
@dataclass(frozen=True, kw_only=True)
class Cooler(Part):
    category: ClassVar[str] = "cooler"

    kind: Literal["air", "aio"]  # aio: all-in-one liquid cooler
    cpu_sockets: list[Text]  # as the CPUs name them: "AM5", "LGA1700", "sTR5", "SP3" ...
    # air coolers, fan included (FIT-6 against the case's cooler height)
    height_mm: Annotated[Count, Unit("mm")] | None = None
    # AIO: 240, 280, 360, 420 (FIT-6 against the case's radiator mounts)
    radiator_mm: Annotated[Count, Unit("mm")] | None = None
    rated_tdp_w: Annotated[Count, Unit("W")] | None = None  # the vendor's rating; None where the vendor publishes none


@record
@dataclass(frozen=True, kw_only=True)
class Platform(Part):
    """A GPU baseboard for SXM/OAM modules (NVIDIA HGX, OCP UBB): the modules sit on it, not in PCIe
    slots, and it joins them with NVLink, directly or through NVSwitch chips (PCI-8)."""

    category: ClassVar[str] = "platform"

    module_form_factor: Literal["sxm", "oam"]
    architectures: list[Text]  # the GPU architectures whose modules it takes ("Ampere")
    gpu_slots: Positive
    topology: Literal["nvswitch", "direct"]  # direct: each pair of GPUs has its own links (4-GPU HGX A100)
    nvswitch_chips: Count = 0
    # one module's NVLink bandwidth, both directions together
    nvlink_gbs_per_gpu: Annotated[PositiveNumber, THROUGHPUT, Unit("GB/s")]
    host_pcie_gen: Positive  # each module's link to the host, through the baseboard's PCIe switches
    host_pcie_lanes: Positive = 16


PART_TYPES: dict[str, type[Part]] = {
    t.category: t for t in (Gpu, Cpu, Motherboard, Memory, Storage, Psu, Case, Cooler, Platform)
}

AnyPart = Union[Gpu, Cpu, Motherboard, Memory, Storage, Psu, Case, Cooler, Platform]  # noqa: UP007

# Keys whose JSON spelling differs from the Python attribute.
_RENAMES = {"from": "source"}
_RENAMES_BACK = {v: k for k, v in _RENAMES.items()}

# Fields the store owns; a catalogue file or CSV may not set them.
STORE_FIELDS = ("custom", "user_edited")

# Labels shown in the parts browser and detail pane; the units are the fields' declarations' (Unit).
FIELD_NAMES: dict[str, str] = {
    "id": QT_TRANSLATE_NOOP("parts", "ID"),
    "name": QT_TRANSLATE_NOOP("parts", "Name"),
    "brand": QT_TRANSLATE_NOOP("parts", "Brand"),
    "category": QT_TRANSLATE_NOOP("parts", "Category"),
    "price_cny": QT_TRANSLATE_NOOP("parts", "Price"),
    "price_date": QT_TRANSLATE_NOOP("parts", "Price date"),
    "source": QT_TRANSLATE_NOOP("parts", "Source"),
    "launch_year": QT_TRANSLATE_NOOP("parts", "Launch year"),
    "notes": QT_TRANSLATE_NOOP("parts", "Notes"),
    "custom": QT_TRANSLATE_NOOP("parts", "Custom part"),
    "used_market": QT_TRANSLATE_NOOP("parts", "Used-market price"),
    "user_edited": QT_TRANSLATE_NOOP("parts", "Price edited by you"),
    "unverified": QT_TRANSLATE_NOOP("parts", "Unverified figures"),
    "vendor": QT_TRANSLATE_NOOP("parts", "Vendor"),
    "architecture": QT_TRANSLATE_NOOP("parts", "Architecture"),
    "compute_capability": QT_TRANSLATE_NOOP("parts", "Compute capability"),
    "gfx_target": QT_TRANSLATE_NOOP("parts", "GFX target"),
    "form_factor": QT_TRANSLATE_NOOP("parts", "Form factor"),
    "vram_gb": QT_TRANSLATE_NOOP("parts", "VRAM"),
    "vram_type": QT_TRANSLATE_NOOP("parts", "VRAM type"),
    "memory_bandwidth_gbs": QT_TRANSLATE_NOOP("parts", "Memory bandwidth"),
    "fp32_tflops": QT_TRANSLATE_NOOP("parts", "FP32"),
    "tensor_cores": QT_TRANSLATE_NOOP("parts", "Tensor Cores"),
    "fp16_tensor_tflops": QT_TRANSLATE_NOOP("parts", "FP16 tensor (dense)"),
    "bf16_tensor_tflops": QT_TRANSLATE_NOOP("parts", "BF16 tensor (dense)"),
    "int8_tops": QT_TRANSLATE_NOOP("parts", "INT8 (dense)"),
    "board_power_w": QT_TRANSLATE_NOOP("parts", "Board power"),
    "recommended_psu_w": QT_TRANSLATE_NOOP("parts", "Recommended PSU"),
    "power_8pin": QT_TRANSLATE_NOOP("parts", "8-pin PCIe power inputs"),
    "power_12v2x6": QT_TRANSLATE_NOOP("parts", "12VHPWR/12V-2x6 inputs"),
    "power_adapter_8pin": QT_TRANSLATE_NOOP("parts", "8-pin inputs of the bundled adapter"),
    "power_eps8": QT_TRANSLATE_NOOP("parts", "8-pin EPS (CPU) inputs"),
    "pcie_gen": QT_TRANSLATE_NOOP("parts", "PCIe generation"),
    "pcie_lanes": QT_TRANSLATE_NOOP("parts", "PCIe lanes"),
    "slot_width": QT_TRANSLATE_NOOP("parts", "Slot width"),
    "length_mm": QT_TRANSLATE_NOOP("parts", "Length"),
    "cooling": QT_TRANSLATE_NOOP("parts", "Cooling"),
    "nvlink": QT_TRANSLATE_NOOP("parts", "NVLink"),
    "nvlink_bandwidth_gbs": QT_TRANSLATE_NOOP("parts", "NVLink bandwidth"),
    "nvlink_max_gpus": QT_TRANSLATE_NOOP("parts", "NVLink GPUs per link group"),
    "min_driver": QT_TRANSLATE_NOOP("parts", "Minimum driver (Linux)"),
    "min_cuda": QT_TRANSLATE_NOOP("parts", "Minimum CUDA"),
    "rocm_supported": QT_TRANSLATE_NOOP("parts", "Supported by current ROCm"),
    "socket": QT_TRANSLATE_NOOP("parts", "Socket"),
    "cores": QT_TRANSLATE_NOOP("parts", "Cores"),
    "threads": QT_TRANSLATE_NOOP("parts", "Threads"),
    "p_cores": QT_TRANSLATE_NOOP("parts", "Performance cores"),
    "base_ghz": QT_TRANSLATE_NOOP("parts", "Base clock"),
    "boost_ghz": QT_TRANSLATE_NOOP("parts", "Boost clock"),
    "l3_mb": QT_TRANSLATE_NOOP("parts", "L3 cache"),
    "tdp_w": QT_TRANSLATE_NOOP("parts", "TDP"),
    "max_power_w": QT_TRANSLATE_NOOP("parts", "Maximum power"),
    "memory_types": QT_TRANSLATE_NOOP("parts", "Memory types"),
    "memory_channels": QT_TRANSLATE_NOOP("parts", "Memory channels"),
    "memory_max_mts": QT_TRANSLATE_NOOP("parts", "Memory speed"),
    "max_memory_gb": QT_TRANSLATE_NOOP("parts", "Maximum memory"),
    "ecc": QT_TRANSLATE_NOOP("parts", "ECC"),
    "rdimm": QT_TRANSLATE_NOOP("parts", "Registered (RDIMM)"),
    "udimm": QT_TRANSLATE_NOOP("parts", "Unbuffered (UDIMM)"),
    "avx512": QT_TRANSLATE_NOOP("parts", "AVX-512"),
    "integrated_graphics": QT_TRANSLATE_NOOP("parts", "Integrated graphics"),
    "max_sockets": QT_TRANSLATE_NOOP("parts", "Sockets per system"),
    "sockets": QT_TRANSLATE_NOOP("parts", "CPU sockets"),
    "chipset": QT_TRANSLATE_NOOP("parts", "Chipset"),
    "memory_type": QT_TRANSLATE_NOOP("parts", "Memory type"),
    "memory_slots": QT_TRANSLATE_NOOP("parts", "Memory slots"),
    "pcie_slots": QT_TRANSLATE_NOOP("parts", "PCIe slots"),
    "m2_slots": QT_TRANSLATE_NOOP("parts", "M.2 slots"),
    "sata_ports": QT_TRANSLATE_NOOP("parts", "SATA ports"),
    "capacity_gb": QT_TRANSLATE_NOOP("parts", "Capacity"),
    "modules": QT_TRANSLATE_NOOP("parts", "Modules"),
    "speed_mts": QT_TRANSLATE_NOOP("parts", "Speed"),
    "cas_latency": QT_TRANSLATE_NOOP("parts", "CAS latency"),
    "kind": QT_TRANSLATE_NOOP("parts", "Kind"),
    "interface": QT_TRANSLATE_NOOP("parts", "Interface"),
    "seq_read_mbs": QT_TRANSLATE_NOOP("parts", "Sequential read"),
    "seq_write_mbs": QT_TRANSLATE_NOOP("parts", "Sequential write"),
    "random_read_iops": QT_TRANSLATE_NOOP("parts", "Random read (4K)"),
    "watts": QT_TRANSLATE_NOOP("parts", "Rated power"),
    "efficiency": QT_TRANSLATE_NOOP("parts", "Efficiency"),
    "atx_version": QT_TRANSLATE_NOOP("parts", "ATX version"),
    "pcie_8pin": QT_TRANSLATE_NOOP("parts", "8-pin PCIe connectors"),
    "connector_12v2x6": QT_TRANSLATE_NOOP("parts", "12V-2x6 connectors"),
    "eps_8pin": QT_TRANSLATE_NOOP("parts", "8-pin EPS connectors"),
    "modular": QT_TRANSLATE_NOOP("parts", "Modular cabling"),
    "max_gpu_length_mm": QT_TRANSLATE_NOOP("parts", "Maximum GPU length"),
    "expansion_slots": QT_TRANSLATE_NOOP("parts", "Expansion slots"),
    "board_form_factors": QT_TRANSLATE_NOOP("parts", "Board form factors"),
    "max_cpu_cooler_mm": QT_TRANSLATE_NOOP("parts", "Maximum CPU cooler height"),
    "psu_form_factors": QT_TRANSLATE_NOOP("parts", "PSU form factors"),
    "max_board_width_mm": QT_TRANSLATE_NOOP("parts", "Maximum board width"),
    "max_board_depth_mm": QT_TRANSLATE_NOOP("parts", "Maximum board depth"),
    "radiator_sizes_mm": QT_TRANSLATE_NOOP("parts", "Radiator sizes"),
    "radiator_mm": QT_TRANSLATE_NOOP("parts", "Radiator"),
    "server_airflow": QT_TRANSLATE_NOOP("parts", "Server airflow (front to back)"),
    "psu_mounts": QT_TRANSLATE_NOOP("parts", "Power supply mounts"),
    "width_mm": QT_TRANSLATE_NOOP("parts", "Width"),
    "depth_mm": QT_TRANSLATE_NOOP("parts", "Depth"),
    "boxed_cooler": QT_TRANSLATE_NOOP("parts", "Cooler in the box"),
    "redundant": QT_TRANSLATE_NOOP("parts", "Redundant module"),
    "cpu_sockets": QT_TRANSLATE_NOOP("parts", "Sockets"),
    "height_mm": QT_TRANSLATE_NOOP("parts", "Height"),
    "rated_tdp_w": QT_TRANSLATE_NOOP("parts", "Rated TDP"),
    "bays_35": QT_TRANSLATE_NOOP("parts", "3.5\" drive bays"),
    "bays_25": QT_TRANSLATE_NOOP("parts", "2.5\" drive mounts"),
    "module_form_factor": QT_TRANSLATE_NOOP("parts", "Module form factor"),
    "architectures": QT_TRANSLATE_NOOP("parts", "GPU architectures"),
    "gpu_slots": QT_TRANSLATE_NOOP("parts", "GPU module sockets"),
    "topology": QT_TRANSLATE_NOOP("parts", "GPU interconnect"),
    "nvswitch_chips": QT_TRANSLATE_NOOP("parts", "NVSwitch chips"),
    "nvlink_gbs_per_gpu": QT_TRANSLATE_NOOP("parts", "NVLink per GPU"),
    "host_pcie_gen": QT_TRANSLATE_NOOP("parts", "Host link PCIe generation"),
    "host_pcie_lanes": QT_TRANSLATE_NOOP("parts", "Host link lanes per GPU"),
}


def _units_by_name() -> dict[str, str]:
    """A field name's unit as its records declare it; where two categories differ (a memory kit's capacity
    in GiB, a drive's in decimal GB) the later category's, and :func:`field_unit` gives each its own."""
    out: dict[str, str] = {}
    for cls in PART_TYPES.values():
        out.update(units(cls))
    return out


_CATEGORY_UNITS: dict[str, dict[str, str]] = {c: units(t) for c, t in PART_TYPES.items()}
_NAME_UNITS = _units_by_name()
# Labels and units shown in the parts browser and detail pane (a name's label, its unit by name).
FIELD_LABELS: dict[str, tuple[str, str]] = {name: (label, _NAME_UNITS.get(name, "")) for name, label in
                                            FIELD_NAMES.items()}

# The words a spec's value is shown in, per field (the Parts tab, the part details, the pickers, the PDF and
# `parts show` show these, not the keys): the catalogue's enum values (cooling, cooler and drive kinds, cabling,
# GPU form factors, interconnect, a slot's lanes) and the case and supply form factors it uses, in the "parts"
# context. A value not listed (a board's ATX, a custom part's own words) is shown as written: :func:`value_label`.
VALUE_LABELS: dict[str, dict[str, str]] = {
    "category": CATEGORY_LABELS,
    "vendor": {"nvidia": "NVIDIA", "amd": "AMD", "intel": "Intel"},  # names, as the vendors write them
    "cooling": {"open_air": QT_TRANSLATE_NOOP("parts", "Open-air (axial fans)"),
                "blower": QT_TRANSLATE_NOOP("parts", "Blower (exhausts out of the case)"),
                "passive": QT_TRANSLATE_NOOP("parts", "Passive (needs server airflow)")},
    "kind": {"hdd": QT_TRANSLATE_NOOP("parts", "Hard disk"), "sata_ssd": QT_TRANSLATE_NOOP("parts", "SATA SSD"),
             "nvme": QT_TRANSLATE_NOOP("parts", "NVMe SSD"), "air": QT_TRANSLATE_NOOP("parts", "Air cooler"),
             "aio": QT_TRANSLATE_NOOP("parts", "All-in-one liquid cooler")},
    "modular": {"full": QT_TRANSLATE_NOOP("parts", "Fully modular"), "semi": QT_TRANSLATE_NOOP("parts", "Semi-modular"),
                "none": QT_TRANSLATE_NOOP("parts", "Not modular")},
    "form_factor": {  # a GPU's, a case's, a supply's
        "pcie": QT_TRANSLATE_NOOP("parts", "PCIe card"),
        "sxm": QT_TRANSLATE_NOOP("parts", "SXM module"),
        "oam": QT_TRANSLATE_NOOP("parts", "OAM module"),
        "Mid tower": QT_TRANSLATE_NOOP("parts", "Mid tower"),
        "Full tower": QT_TRANSLATE_NOOP("parts", "Full tower"),
        "Mini tower": QT_TRANSLATE_NOOP("parts", "Mini tower"),
        "Mini-ITX tower (SFF)": QT_TRANSLATE_NOOP("parts", "Mini-ITX tower (SFF)"),
        "4U rackmount": QT_TRANSLATE_NOOP("parts", "4U rackmount"),
        "4U rackmount / tower (server)": QT_TRANSLATE_NOOP("parts", "4U rackmount / tower (server)"),
        "Supermicro PWS (redundant)": QT_TRANSLATE_NOOP("parts", "Supermicro PWS (redundant)"),
    },
    "module_form_factor": {"sxm": QT_TRANSLATE_NOOP("parts", "SXM module"),
                           "oam": QT_TRANSLATE_NOOP("parts", "OAM module")},
    "topology": {"nvswitch": QT_TRANSLATE_NOOP("parts", "NVSwitch"),
                 "direct": QT_TRANSLATE_NOOP("parts", "Direct links between GPUs")},
    "source": {"cpu": QT_TRANSLATE_NOOP("parts", "CPU"), "chipset": QT_TRANSLATE_NOOP("parts", "chipset")},  # a slot's
}


def value_label(name: str, value: Any, translate: typing.Callable[[str, str], str] | None = None) -> str:
    """A spec's value in words (``cooling`` ``open_air`` → "Open-air (axial fans)"), translated with
    ``translate`` (else the English label, for the caller to translate in the "parts" context); a value with
    no label (a name, a custom part's own words, a number) as written."""
    label = VALUE_LABELS.get(name, {}).get(value) if isinstance(value, str) else None
    if label is None:
        return str(value)
    return translate("parts", label) if translate is not None else label


# The columns that matter when choosing a part, per category (tables, CLI lists).
SUMMARY_FIELDS: dict[str, tuple[str, ...]] = {
    "gpu": ("vram_gb", "memory_bandwidth_gbs", "fp32_tflops", "fp16_tensor_tflops", "board_power_w",
            "recommended_psu_w", "pcie_gen", "length_mm", "nvlink"),
    "cpu": ("socket", "cores", "threads", "boost_ghz", "l3_mb", "tdp_w", "pcie_lanes", "memory_types"),
    "motherboard": ("socket", "chipset", "form_factor", "memory_type", "memory_slots", "max_memory_gb"),
    "memory": ("memory_type", "capacity_gb", "modules", "speed_mts", "ecc", "rdimm"),
    "storage": ("kind", "capacity_gb", "interface", "seq_read_mbs", "random_read_iops"),
    "psu": ("watts", "efficiency", "pcie_8pin", "connector_12v2x6", "form_factor"),
    "case": ("form_factor", "max_gpu_length_mm", "expansion_slots", "board_form_factors", "server_airflow"),
    "cooler": ("kind", "height_mm", "radiator_mm", "rated_tdp_w", "cpu_sockets"),
    "platform": ("module_form_factor", "gpu_slots", "topology", "nvlink_gbs_per_gpu", "architectures"),
}


def field_unit(category: str, name: str) -> str:
    """Unit of a field as its category's record declares it (a memory kit's capacity is GiB, a drive's decimal
    GB), else as its name's records do."""
    got = _CATEGORY_UNITS.get(category, {}).get(name)
    return got if got is not None else _NAME_UNITS.get(name, "")


# ---------------------------------------------------------------------------
# Validation


@dataclass(frozen=True)
class FieldError:
    """A bad field: ``path`` like ``pcie_slots[2].gen``, a translatable message."""

    path: str
    message: Message

    def render(self, translate: typing.Callable[[str, str], str] | None = None) -> str:
        return f"{self.path}: {self.message.render(translate)}"


class PartValidationError(ValueError):
    def __init__(self, errors: list[FieldError]):
        self.errors = errors
        super().__init__("; ".join(e.render() for e in errors))


_HINTS: dict[type[Any], dict[str, Any]] = {}
_NAMES: dict[type[Any], frozenset[str]] = {}


def _hints(cls: type[Any]) -> dict[str, Any]:
    """Resolved annotations, cached: get_type_hints is slow and runs for every loaded part."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _field_names(cls: type[Any]) -> frozenset[str]:
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = frozenset(f.name for f in dataclasses.fields(cls))
    return names


_MSG_REQUIRED = QT_TRANSLATE_NOOP("parts", "is required")
_MSG_UNKNOWN = QT_TRANSLATE_NOOP("parts", "unknown field for a {category}")
_MSG_TYPE = QT_TRANSLATE_NOOP("parts", "must be {expected}, not {got!r}")
_MSG_CHOICE = QT_TRANSLATE_NOOP("parts", "must be one of {choices}, not {got!r}")
_MSG_NEGATIVE = QT_TRANSLATE_NOOP("parts", "must not be negative")
_MSG_POSITIVE = QT_TRANSLATE_NOOP("parts", "must be greater than zero")
_MSG_ID = QT_TRANSLATE_NOOP(
    "parts", "must be lowercase letters, digits and single '-' (brand-model), not {got!r}"
)
_MSG_DATE = QT_TRANSLATE_NOOP("parts", "must be a date like 2026-11 or 2026-11-29, not {got!r}")
_MSG_URL = QT_TRANSLATE_NOOP(
    "parts", "is a URL but not a page's (https://host/path): give the spec page's URL, or write where the "
             "figures come from as text, not {got!r}"
)
_MSG_MEMTYPE = QT_TRANSLATE_NOOP("parts", "must be DDR4 or DDR5, not {got!r}")
_MSG_TOO_LONG = QT_TRANSLATE_NOOP("parts", "is {n:,} characters long: at most {limit} are allowed")

_TYPE_NAMES = {
    int: QT_TRANSLATE_NOOP("parts", "an integer"),
    float: QT_TRANSLATE_NOOP("parts", "a number"),
    str: QT_TRANSLATE_NOOP("parts", "text"),
    bool: QT_TRANSLATE_NOOP("parts", "true or false"),
    list: QT_TRANSLATE_NOOP("parts", "a list"),
}

def _type_name(tp: type) -> Message:
    return Message("parts", _TYPE_NAMES[tp])


def _err(path: str, template: str, **params: Any) -> FieldError:
    return FieldError(path, Message("parts", template, params))


_SCHEMAS: dict[type[Any], Schema[Any]] = {}
_INT_FIELDS: dict[type[Any], frozenset[str]] = {}


def _schema(cls: type[Any]) -> Schema[Any]:
    got = _SCHEMAS.get(cls)
    if got is None:
        got = _SCHEMAS[cls] = Schema(cls)
    return got


def _ints(cls: type[Any]) -> frozenset[str]:
    got = _INT_FIELDS.get(cls)
    if got is None:
        got = _INT_FIELDS[cls] = int_fields(cls)
    return got


def _whole_numbers(cls: type[Any], data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A whole float where an integer goes (JSON's 24.0) as the integer, in the record and its slots."""
    ints = _ints(cls)
    out: dict[str, Any] | None = None
    for k, v in data.items():
        kind = type(v)
        if kind is float and k in ints and v.is_integer():
            new: Any = int(v)
        elif kind is list and k in ("pcie_slots", "m2_slots") and cls is Motherboard:
            slot = PcieSlot if k == "pcie_slots" else M2Slot
            new = [_whole_numbers(slot, d) if isinstance(d, Mapping) else d for d in v]
            if all(x is y for x, y in zip(new, v, strict=True)):
                continue
        else:
            continue
        if out is None:
            out = dict(data)
        out[k] = new
    return data if out is None else out


def _problem_order(data: Any, cls: Any, loc: tuple[str | int, ...], kind: str) -> tuple[Any, ...]:
    """Where a problem goes in the list a user reads: each given field's type problems in the order the
    fields are given, then the missing ones in the record's order, then the bounds, field by field (a
    board's slot's problems where the slot is)."""
    head = loc[0]
    keys = list(data) if isinstance(data, Mapping) else []
    if isinstance(head, int):
        item = data[head] if isinstance(data, list) and head < len(data) else None
        return (0, head, *(_problem_order(item, cls, loc[1:], kind) if len(loc) > 1 else ()))
    if len(loc) > 1:
        inner = data.get(head) if isinstance(data, Mapping) else None
        slot = {"pcie_slots": PcieSlot, "m2_slots": M2Slot}.get(str(head))
        return (0, keys.index(head) if head in keys else len(keys), *_problem_order(inner, slot, loc[1:], kind))
    if kind == "missing":
        names = [_RENAMES_BACK.get(f.name, f.name) if cls in (PcieSlot, M2Slot) else f.name
                 for f in dataclasses.fields(cls)] if cls is not None else []
        return (1, names.index(head) if head in names else len(names))
    return (2 if kind in ("positive", "negative") else 0, keys.index(head) if head in keys else len(keys))


def _message(p: Problem) -> FieldError:
    if p.kind == "missing" or (p.got is None and p.kind in ("type", "choice")):
        return _err(p.path, _MSG_REQUIRED)
    if p.kind == "unknown":
        owner = p.owner
        return _err(p.path, _MSG_UNKNOWN, category=getattr(owner, "category", "") or getattr(owner, "__name__", ""))
    if p.kind == "choice":
        return _err(p.path, _MSG_CHOICE, choices=", ".join(map(str, p.expected)), got=p.got)
    if p.kind == "positive":
        return _err(p.path, _MSG_POSITIVE)
    if p.kind == "negative":
        return _err(p.path, _MSG_NEGATIVE)
    expected = p.expected if p.expected in _TYPE_NAMES else list  # a slot record: "a list", as always said
    return _err(p.path, _MSG_TYPE, expected=_type_name(expected), got=p.got)


def _validate(cls: type[Any], data: Mapping[str, Any], errors: list[FieldError]) -> Any:
    """The record of ``data`` (its fields only), or None after adding every problem to ``errors``."""
    data = _whole_numbers(cls, data)
    try:
        return _schema(cls).validate(data)
    except SchemaError as exc:
        found = sorted(exc.problems, key=lambda p: _problem_order(data, cls, p.loc, p.kind))
        errors.extend(_message(p) for p in found)
        return None


def _upgrade(data: Mapping[str, Any], category: Any) -> Mapping[str, Any]:
    """An earlier version's spelling of a field, read as today's: a GPU's ``cooling = "active"`` is
    ``open_air``; a case's single ``psu_form_factor`` is its ``psu_form_factors`` list. A CSV exported or a
    custom part saved before the change loads unchanged."""
    if category == "gpu" and data.get("cooling") == "active":
        return {**data, "cooling": "open_air"}
    if category == "case" and "psu_form_factor" in data and "psu_form_factors" not in data:
        old = data["psu_form_factor"]
        return {**{k: v for k, v in data.items() if k != "psu_form_factor"},
                "psu_form_factors": [old] if isinstance(old, str) else old}
    return data


def part_from_dict(data: Mapping[str, Any], category: str | None = None) -> AnyPart:
    """Validate a flat part mapping and build its record.

    Raises :class:`PartValidationError` listing every bad field.
    """
    errors: list[FieldError] = []
    cat = category or data.get("category")
    data = _upgrade(data, cat)
    if cat not in PART_TYPES:
        errors.append(_err("category", _MSG_CHOICE, choices=", ".join(CATEGORIES), got=cat))
        raise PartValidationError(errors)
    if category is not None and data.get("category") not in (None, category):
        errors.append(_err("category", _MSG_CHOICE, choices=category, got=data.get("category")))
    cls = PART_TYPES[str(cat)]
    part = _validate(cls, {k: v for k, v in data.items() if k != "category"}, errors)
    _check_semantics(data, errors)
    if errors or part is None:
        raise PartValidationError(errors)
    return typing.cast(AnyPart, part)


_FLOAT_MAX = 1.7976931348623157e308
# Per record type, per field: the exact Python types its JSON value may have, the values a Literal allows
# (else None) and the exact types of a list's items (else None; a list of slots is built below).
_FieldCheck = tuple[frozenset[type], frozenset[Any] | None, frozenset[type] | None]


def _field_check(tp: Any) -> _FieldCheck:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (Union, types.UnionType):
        allowed, choices, items = next(_field_check(a) for a in args if a is not type(None))
        return allowed | {type(None)}, (choices | {None} if choices is not None else None), items
    if origin is Literal:
        return frozenset(type(a) for a in args), frozenset(args), None
    if origin is list:
        item = args[0]
        return frozenset({list}), None, (None if dataclasses.is_dataclass(item) else _field_check(item)[0])
    if tp is float:
        return frozenset({int, float}), None, None
    return frozenset({tp}), None, None  # int, str, bool: exactly (True is not an int here)


_FIELD_CHECKS: dict[type, dict[str, _FieldCheck]] = {}


def _checks_of(cls: type[Any]) -> dict[str, _FieldCheck]:
    got = _FIELD_CHECKS.get(cls)
    if got is None:
        got = _FIELD_CHECKS[cls] = {name: _field_check(tp) for name, tp in _hints(cls).items()
                                    if name in _field_names(cls)}
    return got


def fits_record(cls: type[Any], values: Mapping[str, Any]) -> bool:
    """Whether stored values have the types the record's fields take (a finite number where a number goes, a
    listed choice for a Literal): the cheap check that lets the database's data skip full validation. Damaged
    data (a string or an object where a number goes, a number too large for a float) does not fit, and goes
    the full validation's way, which names it."""
    checks = _checks_of(cls)
    for name, value in values.items():
        check = checks.get(name)
        if check is None:
            return False
        allowed, choices, items = check
        kind = type(value)
        if kind not in allowed:
            return False
        if kind is float and not -_FLOAT_MAX <= value <= _FLOAT_MAX:  # inf, nan
            return False
        if choices is not None and value not in choices:
            return False
        if items is not None and kind is list and not all(type(v) in items for v in value):
            return False
    return True


def part_from_trusted(data: Mapping[str, Any]) -> AnyPart:
    """Build a record from data that was validated when it was written (the database).

    Skips per-field checks, which dominate a warm ``parts list``, when the values have the
    types the record takes (``fits_record``); falls back to full validation if the data does
    not fit the record (written by another version, or damaged).
    """
    cls = PART_TYPES.get(str(data.get("category")))
    if cls is not None:
        kwargs = {k: v for k, v in _upgrade(data, cls.category).items() if k != "category"}
        if not fits_record(cls, kwargs):
            return part_from_dict(data)
        try:
            if cls is Motherboard:
                slots = [(PcieSlot, _slot_kwargs(d)) for d in kwargs.get("pcie_slots", [])]
                m2 = [(M2Slot, _slot_kwargs(d)) for d in kwargs.get("m2_slots", [])]
                if not all(fits_record(slot, d) for slot, d in (*slots, *m2)):
                    return part_from_dict(data)
                kwargs["pcie_slots"] = [PcieSlot(**d) for _slot, d in slots]
                kwargs["m2_slots"] = [M2Slot(**d) for _slot, d in m2]
            return typing.cast(AnyPart, cls(**kwargs))
        except (TypeError, AttributeError):
            pass
    return part_from_dict(data)


def _slot_kwargs(d: Mapping[str, Any]) -> dict[str, Any]:
    return {_RENAMES.get(k, k): v for k, v in d.items()}


def _check_semantics(data: Mapping[str, Any], errors: list[FieldError]) -> None:
    pid = data.get("id")
    if isinstance(pid, str) and len(pid) > MAX_ID:
        errors.append(_err("id", _MSG_TOO_LONG, n=len(pid), limit=MAX_ID))
    elif isinstance(pid, str) and not ID_RE.match(pid):
        errors.append(_err("id", _MSG_ID, got=pid))
    name = data.get("name")
    if isinstance(name, str) and len(name) > MAX_NAME:
        errors.append(_err("name", _MSG_TOO_LONG, n=len(name), limit=MAX_NAME))
    date = data.get("price_date")
    if isinstance(date, str) and not _is_date(date):
        errors.append(_err("price_date", _MSG_DATE, got=date))
    src = data.get("source")
    if isinstance(src, str) and _URL_START.match(src) and not _is_spec_url(src):
        errors.append(_err("source", _MSG_URL, got=src))
    for key in ("memory_type",):
        v = data.get(key)
        if isinstance(v, str) and v not in MEMORY_TYPES:
            errors.append(_err(key, _MSG_MEMTYPE, got=v))
    mts = data.get("memory_types")
    if isinstance(mts, list):
        for i, v in enumerate(mts):
            if v not in MEMORY_TYPES:
                errors.append(_err(f"memory_types[{i}]", _MSG_MEMTYPE, got=v))


def _is_date(text: str) -> bool:
    if not DATE_RE.match(text):
        return False
    try:
        datetime.date.fromisoformat(text if len(text) == 10 else text + "-01")
    except ValueError:
        return False
    return True


# Text that means to be a URL (a scheme): checked to be a page's. Any other text is a description.
_URL_START = re.compile(r"^\s*[A-Za-z][A-Za-z0-9+.-]*://")


def _is_spec_url(url: str) -> bool:
    """A spec page, not a bare domain: http(s)://host/some/path."""
    m = re.match(r"^https?://[^/\s]+(/[^\s]*)$", url)
    return bool(m) and m is not None and len(m.group(1).strip("/")) > 0


_TRUE = {"true", "yes", "1", "y", "是", "有", "√"}
_FALSE = {"false", "no", "0", "n", "否", "无", "×"}


def parse_text_value(text: str, tp: Any) -> Any:
    """Turn text (a CSV cell, a form field) into the annotation's type; leave it as text if it does not parse
    (validation then names the field and the expected type)."""
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        return parse_text_value(text, inner[0])
    if origin is list:
        t = text.strip()
        if t.startswith("["):
            try:
                return json.loads(t)
            except json.JSONDecodeError:
                return text
        return [x.strip() for x in t.replace("；", ";").split(";") if x.strip()]
    if tp is bool:
        low = text.strip().lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        return text
    if tp is int:
        t = text.strip().replace(",", "").replace("¥", "").replace("￥", "")
        try:
            return int(t)
        except ValueError:
            try:
                f = float(t)
            except ValueError:
                return text
            return int(f) if f.is_integer() else f
    if tp is float:
        try:
            return float(text.strip().replace(",", ""))
        except ValueError:
            return text
    return text.strip()



@dataclass(frozen=True)
class RecordShape:
    """What a category's record takes: every field, the ones without a default, and the defaults
    (a listing reads fields out of stored data without building the record, and must agree with it)."""

    fields: frozenset[str]
    required: frozenset[str]
    defaults: Mapping[str, Any]


def _shape(cls: type[Part]) -> RecordShape:
    fs = [f for f in dataclasses.fields(cls) if f.init]
    defaults = {f.name: f.default for f in fs if f.default is not dataclasses.MISSING}
    defaults.update({f.name: f.default_factory() for f in fs
                     if f.default_factory is not dataclasses.MISSING})
    return RecordShape(frozenset(f.name for f in fs), frozenset(f.name for f in fs if f.name not in defaults),
                       defaults)


RECORD_SHAPES: dict[str, RecordShape] = {c: _shape(t) for c, t in PART_TYPES.items()}


def part_to_dict(part: Part) -> dict[str, Any]:
    """The flat JSON object of a part (``category`` first, ``from`` for slot sources)."""
    out: dict[str, Any] = {"id": part.id, "category": part.category}
    for f in dataclasses.fields(part):
        if f.name == "id":
            continue
        out[f.name] = _plain(getattr(part, f.name))
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, (PcieSlot, M2Slot)):
        d: dict[str, Any] = {}
        for f in dataclasses.fields(value):
            d[_RENAMES_BACK.get(f.name, f.name)] = _plain(getattr(value, f.name))
        return d
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def spec_field_names(category: str) -> list[str]:
    """Every field of a category in declaration order, the common ones first."""
    return [f.name for f in dataclasses.fields(PART_TYPES[category])]


def part_json_schema(category: str) -> dict[str, Any]:
    """The JSON Schema of one category's part, as a catalogue file, a custom part or a CSV row gives it (the
    store's own flags left out), each number with its unit (``x-unit``)."""
    cls = PART_TYPES[category]
    doc = _schema(cls).json_schema()
    props = doc["properties"]
    for name in STORE_FIELDS:
        props.pop(name, None)
    doc["properties"] = {"category": {"const": category, "title": "Category"}, **props}
    for name, prop in doc["properties"].items():
        unit = field_unit(category, name)
        if unit:
            prop["x-unit"] = unit
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": f"configurator.part/{category}", **doc}
