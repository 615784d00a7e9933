"""The dated software-support table (CUD-1..4): minimum driver per CUDA major version, and
per compute capability the first CUDA toolkit and the PyTorch builds that run it. Each row
says where it comes from and when it was checked. The guides' own figures sit beside it."""

from __future__ import annotations

from dataclasses import dataclass

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message

CHECKED = "2026-11"
CUDA_NOTES = "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html"
PYTORCH_GET_STARTED = "https://pytorch.org/get-started/locally/"


@dataclass(frozen=True)
class DriverRow:
    cuda_major: int
    min_linux_driver: str  # minor-version compatibility minimum for the whole major release
    source: str = CUDA_NOTES
    checked: str = CHECKED


DRIVER_TABLE = (
    DriverRow(11, "450.80.02"),
    DriverRow(12, "525.60.13"),
    DriverRow(13, "580.65.06"),
)


@dataclass(frozen=True)
class ArchRow:
    compute_capability: str
    architecture: str
    first_cuda: str  # first CUDA toolkit that compiles for it
    first_driver: str  # first Linux driver of that toolkit
    pytorch: str  # which current PyTorch pip builds include kernels for it
    current_wheels: bool  # the newest CUDA build of PyTorch (cu130) runs it
    source: str
    checked: str = CHECKED


# The architecture's name and the PyTorch builds are translated where shown (context "software": a
# message in the reader's language, :func:`architecture_message`, :func:`pytorch_message`); the rule's
# JSON keeps the English.
ARCH_TABLE = (
    ArchRow("7.0", QT_TRANSLATE_NOOP("software", "Volta"), "9.0", "384.81",
            QT_TRANSLATE_NOOP("software", "cu126 builds; CUDA 12.8+ and 13.x builds dropped sm_70"), False,
            PYTORCH_GET_STARTED),
    ArchRow("7.5", QT_TRANSLATE_NOOP("software", "Turing"), "10.0", "410.48",
            QT_TRANSLATE_NOOP("software", "cu126, cu128, cu130 builds (sm_75)"), True, PYTORCH_GET_STARTED),
    ArchRow("8.0", QT_TRANSLATE_NOOP("software", "Ampere (GA100)"), "11.0", "450.51.06",
            QT_TRANSLATE_NOOP("software", "cu126, cu128, cu130 builds (sm_80)"), True, PYTORCH_GET_STARTED),
    ArchRow("8.6", QT_TRANSLATE_NOOP("software", "Ampere (GA10x)"), "11.1", "455.23.04",
            QT_TRANSLATE_NOOP("software", "cu126, cu128, cu130 builds (sm_86); PyTorch ≥ 1.7.1"), True,
            PYTORCH_GET_STARTED),
    ArchRow("8.9", QT_TRANSLATE_NOOP("software", "Ada Lovelace"), "11.8", "520.61.05",
            QT_TRANSLATE_NOOP("software", "cu126, cu128, cu130 builds (sm_86 kernels run on sm_89)"), True,
            PYTORCH_GET_STARTED),
    ArchRow("9.0", QT_TRANSLATE_NOOP("software", "Hopper"), "11.8", "520.61.05",
            QT_TRANSLATE_NOOP("software", "cu126, cu128, cu130 builds (sm_90)"), True, PYTORCH_GET_STARTED),
    ArchRow("10.0", QT_TRANSLATE_NOOP("software", "Blackwell (data centre)"), "12.8", "570.26",
            QT_TRANSLATE_NOOP("software", "cu128 and cu130 builds only (sm_100)"), True, PYTORCH_GET_STARTED),
    ArchRow("12.0", QT_TRANSLATE_NOOP("software", "Blackwell (GeForce/RTX PRO)"), "12.8", "570.86.10",
            QT_TRANSLATE_NOOP("software", "cu128 and cu130 builds only (sm_120; PyTorch ≥ 2.7)"), True,
            PYTORCH_GET_STARTED),
)


def architecture_message(row: ArchRow) -> Message:
    """The architecture's name, in the reader's language where it has words ("data centre")."""
    return Message("software", row.architecture)


def pytorch_message(row: ArchRow) -> Message:
    """Which PyTorch builds run it, in the reader's language."""
    return Message("software", row.pytorch)

ROCM_NOTES = "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/reference/system-requirements.html"

# What the guides say (CUD-1, CUD-2): shown beside the table, never used as the rule.
GUIDE_CUD1 = "G 一: RTX 30 系列需 450.80.02 及以上驱动，PyTorch ≥ 1.7.0 以支持 CUDA 11.x"
GUIDE_CUD2 = "M 2.2: CUDA 版本需 ≥ 11.3（RTX 30 系显卡要求）"


def arch_row(compute_capability: str | None) -> ArchRow | None:
    if not compute_capability:
        return None
    for row in ARCH_TABLE:
        if row.compute_capability == compute_capability:
            return row
    return None
