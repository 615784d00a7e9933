"""The rules catalogue's CUD-* entries: drivers, CUDA and the software stack.
The checks are in configurator/core/rules/cud.py."""

from __future__ import annotations

from configurator.core.i18n import QT_TRANSLATE_NOOP
from configurator.core.rules.catalogue.model import Rule

RULES = (
    Rule("CUD-1", "G 一",
         QT_TRANSLATE_NOOP("rule catalogue", "Driver, CUDA and PyTorch builds for the GPU's architecture"),
         "Looks the card's compute capability up in a dated table (first CUDA release, minimum Linux driver "
         "per CUDA major, the PyTorch builds that contain its kernels), each row with its source; the "
         "guides' own RTX 30 figures are shown beside it.",
         {"warning": "the newest PyTorch CUDA builds leave the architecture out",
          "info": "the versions the card needs", "fail": "doctor: the driver is older than the runtime needs"},
         where=("planner", "doctor"), errata=(11,)),
    Rule("CUD-2", "M 2.2",
         QT_TRANSLATE_NOOP("rule catalogue", "RTX 30 cards: the guides' CUDA 11.3 against the vendor's 11.1"),
         "For compute capability 8.6 the guides ask for CUDA 11.3 and driver 450.80.02; the app shows the "
         "vendor's minimum (CUDA 11.1, driver 455.23.04) next to them, and notes that current wheels bundle a "
         "newer CUDA anyway.", {"info": "the build has an RTX 30 (sm_86) card"}, errata=(11,)),
    Rule("CUD-3", "M 1.2", QT_TRANSLATE_NOOP("rule catalogue", "CUDA and cuDNN match the framework build"),
         "A system or conda CUDA that does not match the framework's build disables GPU acceleration "
         "without a clear error. PyTorch's pip wheels bundle their CUDA runtime and cuDNN, so then only the "
         "driver must be new enough. The doctor compares the installed pieces.",
         {"info": "planner: the build has a GPU",
          "fail": "doctor: torch cannot be imported, its CUDA runtime is newer than the driver runs, or it has "
                  "no kernels for the card"}, where=("planner", "doctor")),
    Rule("CUD-4", "M 1.1", QT_TRANSLATE_NOOP("rule catalogue", "AMD GPUs need ROCm"),
         "An AMD card runs PyTorch only through ROCm and its wheels, and libraries with CUDA-only kernels do "
         "not run. For cards ROCm no longer supports (the RX 570, gfx803) there is no GPU path at all: the "
         "build would train on the CPU. Suggest holds it as a constraint for training (the guide takes AMD "
         "only on a limited budget, with poor ecosystem compatibility): an AMD card only where no NVIDIA "
         "build fits, or with --relax CUD-4.",
         {"warning": "the build has an AMD card (with or without ROCm support)"}, errata=(14,)),
    Rule("CUD-5", "G 一, M 1.2",
         QT_TRANSLATE_NOOP("rule catalogue", "Verify the stack: nvidia-smi, torch.cuda, torch.version"),
         "The doctor does what the guides ask to do by hand: reads the driver through NVML, asks torch "
         "whether CUDA is available and which CUDA it was built with.",
         {"fail": "no NVIDIA driver answers, or torch sees no usable CUDA device"},
         where=("doctor",)),
    Rule("CUD-6", "M 1.2", QT_TRANSLATE_NOOP("rule catalogue", "Ubuntu LTS, WSL2 on Windows, an isolated Python"),
         "The build records its operating system: on Windows, training belongs under WSL2; an old or other "
         "Linux gets a note that a current Ubuntu LTS is best supported. The doctor detects WSL2 and "
         "whether Python runs in a venv or conda environment.",
         {"warning": "Windows without WSL2", "info": "an older or other Linux",
          "fail": "doctor: WSL 1, where CUDA does not work",
          "warn": "doctor: native Windows, or Python outside a venv or conda environment"},
         where=("planner", "doctor"), errata=(11,)),
    Rule("CUD-7", "M 3.1", QT_TRANSLATE_NOOP("rule catalogue", "Containerise: a CUDA base image matching the driver"),
         "Advises a CUDA base image no newer than the driver supports, with the framework installed on top.",
         {"info": "the build has a GPU"}),
)
