"""This machine as a build: the hardware the host reports, matched to catalogue parts.

The facts (:class:`MachineFacts`) come from NVML, /proc and /sys (host/facts.py reads them);
this module only matches them, so it is pure and testable with any strings. Each part is matched by
its model tokens: the words of a catalogue name that carry a digit (``4090``, ``i9-13900k``,
``b550-f``) must all be in the reported name, and the variant words (Ti, SUPER, D, X3D, PCIe, SXM,
NVL …) must agree both ways, so an RTX 3060 Ti is never taken for an RTX 3060. Where the name leaves
a choice (an RTX 3060 with 8 or 12 GB, an H100 that NVML calls "H100 80GB HBM3"), the reported memory
decides, and what is still open lowers the confidence and lists the alternatives. A part that matches
nothing stays unknown, with what was reported, for the user to pick.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from configurator.core.build import Build, BuildPart
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.parts import AnyPart, Cpu, Gpu, Memory, Motherboard, Storage
from configurator.core.units import GIB

THIS_MACHINE = "This machine"

# Words of a name that say nothing about the model.
_NOISE = {
    "nvidia", "geforce", "tesla", "quadro", "intel", "amd", "r", "tm", "processor", "cpu", "core", "with",
    "radeon", "graphics", "generation", "edition", "inc", "co", "ltd", "corporation", "computer", "technology",
    "international", "gaming", "wifi", "the", "ssd", "nvme", "hbm2", "hbm2e", "hbm3", "hbm3e", "gb", "tb",
}
# Variant words: both names must agree on each of them.
_VARIANTS = {"ti", "super", "d", "x3d", "pcie", "sxm", "nvl", "ada", "pro", "plus", "max", "xt", "k", "kf", "f",
             "evo", "ultra"}
# Board vendors as DMI spells them → as the catalogue does.
_BOARD_VENDORS = {"asustek": "asus", "gigabyte": "gigabyte", "micro-star": "msi", "asrockrack": "asrock rack",
                  "asrock": "asrock", "supermicro": "supermicro"}


@dataclass(frozen=True)
class GpuFact:
    name: str  # as NVML gives it: "NVIDIA GeForce RTX 4090", "NVIDIA A100-SXM4-80GB"
    memory_bytes: int | None = None
    pci_id: str | None = None  # PCI vendor:device, "10de:2684"

    @property
    def reported(self) -> str:
        """What the user is shown: the name, and the PCI id that names the model where the name does not."""
        return f"{self.name} (PCI {self.pci_id})" if self.pci_id else self.name


def gpu_facts(samples: Iterable[object]) -> list[GpuFact]:
    """The GPUs as the monitor samples them (monitor.snapshot.GpuSample), MIG slices and lost GPUs left out."""
    return [GpuFact(g.name, g.memory_total_bytes, getattr(g, "pci_id", None))  # type: ignore[attr-defined]
            for g in samples if g.mig_parent is None and not g.lost]  # type: ignore[attr-defined]


def no_gpu_read(error: str) -> Message:
    """Why the GPUs are left for the user to pick: NVML's error, or that nothing sampled them."""
    return Message("detect", QT_TRANSLATE_NOOP(
        "detect", "no GPU was read ({error}): the GPUs are left for you to pick"), {"error": error})


@dataclass(frozen=True)
class DriveFact:
    model: str  # /sys/block/<dev>/device/model
    size_bytes: int | None = None
    nvme: bool = False
    rotational: bool | None = None


@dataclass(frozen=True)
class MachineFacts:
    gpus: tuple[GpuFact, ...] = ()
    cpu_model: str | None = None  # /proc/cpuinfo "model name"
    sockets: int = 1
    memory_bytes: int | None = None
    board_vendor: str | None = None  # /sys/class/dmi/id/board_vendor
    board_name: str | None = None
    drives: tuple[DriveFact, ...] = ()
    gpu_error: Message | None = None  # why no GPU was read (no driver …)


@dataclass(frozen=True)
class DetectedPart:
    category: str
    reported: str  # what the host said, for the user
    part_id: str | None  # None: unknown, the user picks
    confidence: float  # 0..1
    qty: int = 1
    alternatives: tuple[str, ...] = ()
    why: Message | None = None


@dataclass(frozen=True)
class DetectedMachine:
    parts: tuple[DetectedPart, ...]
    notes: tuple[Message, ...] = field(default_factory=tuple)

    def build(self, name: str = THIS_MACHINE) -> Build:
        """The matched parts as a build the planner checks like any other (unknown ones left out)."""
        return Build(tuple(BuildPart(p.part_id, p.qty) for p in self.parts if p.part_id), name=name)

    def unknown(self) -> list[DetectedPart]:
        return [p for p in self.parts if p.part_id is None]


def tokens(text: str) -> list[str]:
    t = text.lower().replace("(r)", " ").replace("(tm)", " ")
    t = re.sub(r"@\s*[\d.]+\s*ghz", " ", t)  # "CPU @ 2.30GHz"
    t = re.sub(r"\b\d+-core\b", " ", t)  # "16-Core Processor"
    t = re.sub(r"\bsxm\d\b", "sxm", t)  # SXM2/SXM4/SXM5
    t = re.sub(r"\bpci-?e\b", "pcie", t)
    t = re.sub(r"(\d+)\s*(gb|tb)\b", r"\1\2", t)  # "10 GB" → "10gb": a size, not a model number
    t = t.replace("(", " ").replace(")", " ")
    raw = re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", t)
    out: list[str] = []
    for w in raw:
        if w in _NOISE:
            continue
        out.append(w)
        if "-" in w:  # "a100-sxm4-80gb" → also its pieces
            out.extend(p for p in w.split("-") if p and p not in _NOISE)
    return [re.sub(r"^sxm\d$", "sxm", w) for w in out]


def _model_tokens(name: str) -> set[str]:
    return {w for w in tokens(name) if any(ch.isdigit() for ch in w) and not re.fullmatch(r"\d+(gb|tb)", w)}


def _variants(name: str) -> set[str]:
    return {w for w in tokens(name) if w in _VARIANTS}


# Form factors a GPU's reported name may leave out ("NVIDIA H100 80GB HBM3" is the SXM module).
_FORMS = {"pcie", "sxm", "nvl"}


def _part_numbers(reported_tokens: set[str], catalogue_name: str) -> bool:
    """A part number in the catalogue name's parentheses ("WD80EFPX", "MZ-V9P2T0") that the reported
    model starts with: drives report their part number ("WDC WD80EFPX-68C4ZN0")."""
    inside = " ".join(re.findall(r"\((.*?)\)", catalogue_name))
    numbers = [w for w in tokens(inside) if len(w) >= 6 and any(ch.isdigit() for ch in w)]
    return any(r.startswith(n) for n in numbers for r in reported_tokens)


def _name_match(reported: str, catalogue_name: str) -> bool:
    rep = set(tokens(reported))
    if _part_numbers(rep, catalogue_name):
        return True
    main = re.sub(r"\(.*?\)", " ", catalogue_name) if re.search(r"\(\S*\d\S*\)$", catalogue_name) else catalogue_name
    models = _model_tokens(main)
    if not models or not models <= rep:
        return False
    theirs, ours = _variants(main), _variants(reported)
    if not ours & _FORMS:
        theirs -= _FORMS  # the reported name does not say: either form may be it
    return theirs == ours


def _candidates(reported: str, parts: Iterable[AnyPart]) -> list[AnyPart]:
    found = [p for p in parts if _name_match(reported, p.name)]
    # prefer the most specific names (most model tokens matched)
    found.sort(key=lambda p: (-len(_model_tokens(p.name)), p.price_cny, p.id))
    best = len(_model_tokens(found[0].name)) if found else 0
    return [p for p in found if len(_model_tokens(p.name)) == best]


def _pick(category: str, reported: str, found: Sequence[AnyPart], qty: int = 1,
          exact_note: Message | None = None) -> DetectedPart:
    if not found:
        return DetectedPart(category, reported, None, 0.0, qty, why=Message(
            "detect", QT_TRANSLATE_NOOP("detect", "no catalogue part matches \u201c{reported}\u201d: pick it"),
            {"reported": reported}))
    if len(found) == 1:
        return DetectedPart(category, reported, found[0].id, 1.0, qty, why=exact_note)
    return DetectedPart(category, reported, found[0].id, round(1 / len(found), 2), qty,
                        tuple(p.id for p in found[1:]), Message(
                            "detect", QT_TRANSLATE_NOOP("detect", "the reported name fits {n} catalogue parts; "
                                                        "the first is taken: check it"), {"n": len(found)}))


def _gpus(facts: MachineFacts, cat: Sequence[AnyPart]) -> list[DetectedPart]:
    gpus = [p for p in cat if isinstance(p, Gpu)]
    groups: dict[GpuFact, int] = {}
    for g in facts.gpus:
        groups[g] = groups.get(g, 0) + 1
    out = []
    for fact, n in groups.items():
        name, mem = fact.name, fact.memory_bytes
        found = _candidates(name, gpus)
        hbm = re.search(r"\bhbm\w*", name.lower())  # "H100 80GB HBM3" is the SXM module (the PCIe card: HBM2e)
        if hbm and len(found) > 1:
            found = [p for p in found if isinstance(p, Gpu) and p.vram_type.lower() == hbm.group(0)] or found
        if mem and len(found) > 1:
            gb = mem / GIB
            # NVML reports a little less than the marketed size (reserved memory): nearest size wins
            sized = [p for p in found if isinstance(p, Gpu) and abs(p.vram_gb - gb) <= max(1.5, 0.08 * p.vram_gb)]
            found = list(sized) if sized else found
        pick = _pick("gpu", fact.reported, found, n)
        if not found and fact.pci_id and not _model_tokens(name):
            # a card newer than the driver: NVML calls it "NVIDIA Graphics Device"
            pick = replace(pick, why=Message("detect", QT_TRANSLATE_NOOP(
                "detect", "the driver does not name this card; its PCI id {pci} does (look it up in the PCI ID "
                          "Repository, or update the driver): pick it"), {"pci": fact.pci_id}))
        top = next((p for p in found if p.id == pick.part_id), None)
        if mem and isinstance(top, Gpu) and abs(top.vram_gb - mem / GIB) > max(1.5, 0.08 * top.vram_gb):
            # e.g. an RTX 3080 with 12 GB where the catalogue has the 10 GB card
            pick = replace(pick, confidence=min(pick.confidence, 0.5), why=Message("detect", QT_TRANSLATE_NOOP(
                "detect", "the card reports {reported} GB, the catalogue's {name} has {catalogue} GB: check it"),
                {"reported": round(mem / GIB), "name": top.name, "catalogue": top.vram_gb}))
        out.append(pick)
    return out


def _cpu(facts: MachineFacts, cat: Sequence[AnyPart]) -> list[DetectedPart]:
    if not facts.cpu_model:
        return []
    return [_pick("cpu", facts.cpu_model, _candidates(facts.cpu_model, [p for p in cat if isinstance(p, Cpu)]),
                  max(facts.sockets, 1))]


def _board(facts: MachineFacts, cat: Sequence[AnyPart]) -> list[DetectedPart]:
    if not facts.board_name:
        return []
    vendor = (facts.board_vendor or "").lower()
    short = next((v for k, v in _BOARD_VENDORS.items() if k in vendor.replace(" ", "")), vendor)
    reported = f"{short} {facts.board_name}".strip()
    boards = [p for p in cat if isinstance(p, Motherboard)]
    found = _candidates(reported, boards)
    if short:
        found = [p for p in found if p.name.lower().startswith(short)] or found
    return [_pick("motherboard", f"{facts.board_vendor or ''} {facts.board_name}".strip(), found)]


def _memory(facts: MachineFacts, cat: Sequence[AnyPart], cpu_id: str | None) -> list[DetectedPart]:
    if not facts.memory_bytes:
        return []
    # the kernel reports less than the installed size (firmware reservations): round up to a whole GiB step
    gib = facts.memory_bytes / GIB
    kits = [p for p in cat if isinstance(p, Memory)]
    cpu = next((p for p in cat if p.id == cpu_id and isinstance(p, Cpu)), None)
    types = set(cpu.memory_types) if isinstance(cpu, Cpu) else set()
    sized = [m for m in kits if 0.9 * m.capacity_gb <= gib <= m.capacity_gb and (not types or m.memory_type in types)]
    reported = f"{gib:.1f} GiB"
    if not sized:
        return [_pick("memory", reported, [])]
    sized.sort(key=lambda m: (m.price_cny, m.id))
    # the kit's make and speed cannot be read without root (DMI type 17): never more than a guess
    return [DetectedPart("memory", reported, sized[0].id, round(0.5 / len(sized), 2), 1,
                         tuple(m.id for m in sized[1:]), Message(
                             "detect", QT_TRANSLATE_NOOP("detect", "only the total size is readable (the modules' "
                                                         "make and speed need root): a kit of that size is "
                                                         "assumed; pick yours")))]


def _drives(facts: MachineFacts, cat: Sequence[AnyPart]) -> list[DetectedPart]:
    drives = [p for p in cat if isinstance(p, Storage)]
    out = []
    for d in facts.drives:
        found = _candidates(d.model, drives)
        if d.size_bytes and len(found) > 1:
            tb = d.size_bytes / 1e12
            sized = [p for p in found
                     if isinstance(p, Storage) and abs(p.capacity_gb / 1000 - tb) <= 0.1 * max(tb, 0.1)]
            found = list(sized) if sized else found
        out.append(_pick("storage", d.model, found))
    return out


def detect(facts: MachineFacts, catalogue: Mapping[str, AnyPart]) -> DetectedMachine:
    cat = list(catalogue.values())
    cpu = _cpu(facts, cat)
    parts = [*cpu, *_board(facts, cat), *_memory(facts, cat, cpu[0].part_id if cpu else None),
             *_gpus(facts, cat), *_drives(facts, cat)]
    notes: list[Message] = []
    if facts.gpu_error is not None:
        notes.append(facts.gpu_error)
    notes.append(Message("detect", QT_TRANSLATE_NOOP(
        "detect", "the power supply and the case cannot be read from the system: add them to judge power and fit")))
    return DetectedMachine(tuple(parts), tuple(notes))
