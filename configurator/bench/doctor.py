"""The environment doctor: is this Python/torch/driver set-up able to use the hardware?

Each check gives a verdict (pass, warn, fail, skip), what it found and, when it is not a
pass, the fix; with the rule IDs behind it (CUD-3, CUD-5, CUD-6, ENV-1, ENV-2, PCI-3).
Standard library and (optionally) torch only: it also runs inside the benchmark worker.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from configurator.bench.i18n import QT_TRANSLATE_NOOP
from configurator.host import cpu, gpu, system
from configurator.host.gpu import pcie_expected_gbps

VERDICTS = ("pass", "warn", "fail", "skip")

# Minimum Linux driver per CUDA major version (NVIDIA CUDA Toolkit release notes, table 3,
# "minor version compatibility"): a driver at least this new runs any 11.x / 12.x / 13.x runtime.
MIN_DRIVER = {11: (450, 80, 2), 12: (525, 60, 13), 13: (580, 65, 6)}

TITLES = {
    "driver": QT_TRANSLATE_NOOP("doctor", "NVIDIA driver"),
    "cuda_runtime": QT_TRANSLATE_NOOP("doctor", "CUDA runtime vs driver"),
    "torch_cuda": QT_TRANSLATE_NOOP("doctor", "torch.version.cuda"),
    "cudnn": QT_TRANSLATE_NOOP("doctor", "cuDNN"),
    "cuda_available": QT_TRANSLATE_NOOP("doctor", "torch.cuda.is_available()"),
    "arch": QT_TRANSLATE_NOOP("doctor", "Compute capability vs torch's architectures"),
    "pcie": QT_TRANSLATE_NOOP("doctor", "PCIe link"),
    "cpu_threads": QT_TRANSLATE_NOOP("doctor", "CPU threads"),
    "os": QT_TRANSLATE_NOOP("doctor", "Operating system / WSL2"),
    "venv": QT_TRANSLATE_NOOP("doctor", "Isolated Python environment"),
    "pip_check": QT_TRANSLATE_NOOP("doctor", "pip check"),
    "paths": QT_TRANSLATE_NOOP("doctor", "Non-ASCII characters in model paths"),
}


@dataclass
class Check:
    id: str
    verdict: str
    detail: str  # translatable template, context "doctor"
    params: dict[str, Any] = field(default_factory=dict)
    fix: str | None = None  # translatable template, context "doctor"
    fix_params: dict[str, Any] = field(default_factory=dict)
    rules: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        return TITLES.get(self.id, self.id)

    def render(self, translate: Callable[[str, str], str] | None = None) -> dict[str, Any]:
        def tr(text: str, params: dict[str, Any]) -> str:
            t = translate("doctor", text) if translate else text
            try:
                return t.format(**params)
            except (KeyError, IndexError, ValueError):
                return text.format(**params)

        return {
            "id": self.id,
            "check": tr(self.title, {}),
            "verdict": self.verdict,
            "detail": tr(self.detail, self.params),
            "fix": tr(self.fix, self.fix_params) if self.fix else None,
            "rules": list(self.rules),
        }

    def to_wire(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "verdict": self.verdict,
            "detail": self.detail,
            "params": self.params,
            "fix": self.fix,
            "fix_params": self.fix_params,
            "rules": list(self.rules),
        }

    # the worker sends checks with to_json
    to_json = to_wire


def _version_tuple(text: str | None) -> tuple[int, ...]:
    out = []
    for part in (text or "").split("."):
        digits = "".join(c for c in part if c.isdigit())
        if not digits:
            break
        out.append(int(digits))
    return tuple(out)


@dataclass
class Probe:
    """What the checks look at; tests replace any of it."""

    torch: Any = None
    torch_error: str | None = None
    nvidia_pci: list[dict[str, Any]] = field(default_factory=list)
    smi: dict[str, Any] | None = None
    proc_driver: str | None = None
    wsl: str | None = None
    platform: str = sys.platform
    in_venv: bool = False
    conda: str | None = None
    cpu: dict[str, int | None] = field(default_factory=dict)
    omp_threads: str | None = None
    pip_check: tuple[int, str] | None = None
    paths: dict[str, str] = field(default_factory=dict)

    @classmethod
    def gather(cls, run_pip: bool = True) -> Probe:
        p = cls()
        try:
            import torch

            p.torch = torch
        except Exception as exc:
            p.torch_error = f"{type(exc).__name__}: {exc}"
        p.nvidia_pci = gpu.nvidia_pci_devices()
        p.smi = gpu.nvidia_smi()
        p.proc_driver = gpu.proc_driver_version()
        p.wsl = system.wsl()
        p.in_venv = sys.prefix != sys.base_prefix
        p.conda = os.environ.get("CONDA_PREFIX")
        p.cpu = cpu.counts()
        p.omp_threads = os.environ.get("OMP_NUM_THREADS")
        if run_pip:
            p.pip_check = _pip_check()
        home = Path.home()
        p.paths = {
            "cwd": os.getcwd(),
            "HF_HOME": os.environ.get("HF_HOME") or str(home / ".cache" / "huggingface"),
            "TORCH_HOME": os.environ.get("TORCH_HOME") or str(home / ".cache" / "torch"),
        }
        return p


def _pip_check() -> tuple[int, str] | None:
    try:
        r = subprocess.run(
            [sys.executable, "-m", "pip", "check"], capture_output=True, text=True, timeout=120, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return r.returncode, (r.stdout + r.stderr).strip()


def _driver_version(p: Probe) -> str | None:
    if p.smi and p.smi.get("driver"):
        return str(p.smi["driver"])
    return p.proc_driver


NO_GPU = QT_TRANSLATE_NOOP("doctor", "no NVIDIA GPU found: the benchmarks run on the CPU")
NO_CUDA = QT_TRANSLATE_NOOP("doctor", "torch has no CUDA")


class Facts:
    """What more than one check needs, worked out once from the probe."""

    def __init__(self, p: Probe):
        self.p = p
        self.t = p.torch
        self.has_gpu = bool(p.nvidia_pci) or bool(p.smi and p.smi.get("gpus"))
        self.driver = _driver_version(p)
        self.torch_cuda = getattr(getattr(self.t, "version", None), "cuda", None) if self.t is not None else None
        self._cuda: tuple[bool, str] | None = None

    @property
    def cuda_checked(self) -> bool:
        """Whether CUDA is worth asking about: a CUDA build of torch on a machine with an NVIDIA GPU."""
        return self.t is not None and bool(self.torch_cuda) and self.has_gpu

    @property
    def cuda(self) -> tuple[bool, str]:
        """(torch.cuda.is_available(), why not where it raised), asked once."""
        if self._cuda is None:
            ok, why = False, ""
            if self.cuda_checked:
                try:
                    ok = bool(self.t.cuda.is_available())
                except Exception as exc:
                    why = str(exc)
            self._cuda = (ok, why)
        return self._cuda


CheckFn = Callable[[Facts], Check]
CHECKS: list[CheckFn] = []  # in the order they run and are shown


def check(fn: CheckFn) -> CheckFn:
    """Register a check: run_checks runs them in the order they are defined here."""
    CHECKS.append(fn)
    return fn


def run_checks(probe: Probe | None = None) -> list[Check]:
    facts = Facts(probe or Probe.gather())
    return [fn(facts) for fn in CHECKS]


@check
def driver(f: Facts) -> Check:
    """CUD-5, CUD-1: a driver where there is an NVIDIA GPU."""
    if not f.has_gpu and not f.driver:
        return Check("driver", "skip", NO_GPU, rules=("CUD-5",))
    if not f.driver:
        return Check(
            "driver",
            "fail",
            QT_TRANSLATE_NOOP(
                "doctor",
                "{n} NVIDIA GPU(s) on the PCI bus, but no driver is loaded (nvidia-smi is missing or fails)",
            ),
            {"n": len(f.p.nvidia_pci) or "?"},
            QT_TRANSLATE_NOOP(
                "doctor",
                "Install the NVIDIA driver (Ubuntu: sudo ubuntu-drivers install), reboot, then "
                "check that nvidia-smi lists the card.",
            ),
            rules=("CUD-5", "CUD-1"),
        )
    return Check(
        "driver",
        "pass",
        QT_TRANSLATE_NOOP("doctor", "driver {version}, supports CUDA up to {cuda}"),
        {"version": f.driver, "cuda": (f.p.smi or {}).get("cuda") or "?"},
        rules=("CUD-5",),
    )


@check
def torch_cuda(f: Facts) -> Check:
    """torch itself: importable, and a CUDA build where there is an NVIDIA GPU (CUD-3)."""
    t = f.t
    if t is None:
        return Check(
            "torch_cuda",
            "fail",
            QT_TRANSLATE_NOOP("doctor", "torch cannot be imported: {error}"),
            {"error": f.p.torch_error or "?"},
            QT_TRANSLATE_NOOP(
                "doctor",
                "Install PyTorch into this environment (pip install torch, with the index URL "
                "from pytorch.org for your CUDA version).",
            ),
            rules=("CUD-3", "ENV-1"),
        )
    if f.torch_cuda is None and f.has_gpu:
        return Check(
            "torch_cuda",
            "fail",
            QT_TRANSLATE_NOOP(
                "doctor", "torch {version} is a CPU-only build, but this machine has an NVIDIA GPU"
            ),
            {"version": t.__version__},
            QT_TRANSLATE_NOOP(
                "doctor",
                "Install a CUDA build: pip install torch --index-url "
                "https://download.pytorch.org/whl/cu128 (pick the CUDA version your driver "
                "supports).",
            ),
            rules=("CUD-3",),
        )
    if f.torch_cuda is None:
        return Check(
            "torch_cuda",
            "pass",
            QT_TRANSLATE_NOOP("doctor", "torch {version}, CPU-only build (no CUDA)"),
            {"version": t.__version__},
            rules=("CUD-5",),
        )
    return Check(
        "torch_cuda",
        "pass",
        QT_TRANSLATE_NOOP("doctor", "torch {version} built for CUDA {cuda}"),
        {"version": t.__version__, "cuda": f.torch_cuda},
        rules=("CUD-5",),
    )


@check
def cuda_runtime(f: Facts) -> Check:
    """CUD-3: torch's CUDA runtime against the driver."""
    if not (f.torch_cuda and f.driver and f.has_gpu):
        return Check(
            "cuda_runtime",
            "skip",
            QT_TRANSLATE_NOOP("doctor", "nothing to match: no CUDA build of torch with an NVIDIA driver"),
            rules=("CUD-3",),
        )
    need = MIN_DRIVER.get(_version_tuple(f.torch_cuda)[0]) if _version_tuple(f.torch_cuda) else None
    have = _version_tuple(f.driver)
    if need and have < need:
        return Check(
            "cuda_runtime",
            "fail",
            QT_TRANSLATE_NOOP(
                "doctor", "torch's CUDA {cuda} runtime needs driver {need} or newer; this driver is {have}"
            ),
            {"cuda": f.torch_cuda, "need": ".".join(map(str, need)), "have": f.driver},
            QT_TRANSLATE_NOOP(
                "doctor",
                "Update the NVIDIA driver, or install a torch build for an older CUDA "
                "(pip wheels bundle the CUDA runtime and cuDNN: only the driver must be new "
                "enough).",
            ),
            rules=("CUD-3", "CUD-1"),
        )
    return Check(
        "cuda_runtime",
        "pass",
        QT_TRANSLATE_NOOP("doctor", "the pip wheel bundles CUDA {cuda}; driver {have} is new enough"),
        {"cuda": f.torch_cuda, "have": f.driver},
        rules=("CUD-3",),
    )


@check
def cuda_available(f: Facts) -> Check:
    """CUD-5: torch.cuda.is_available() where a CUDA build meets an NVIDIA GPU."""
    if not f.cuda_checked:
        return Check("cuda_available", "skip", NO_GPU if not f.has_gpu else NO_CUDA, rules=("CUD-5",))
    ok, why = f.cuda
    if ok:
        return Check(
            "cuda_available",
            "pass",
            QT_TRANSLATE_NOOP("doctor", "True: {n} device(s)"),
            {"n": f.t.cuda.device_count()},
            rules=("CUD-5",),
        )
    return Check(
        "cuda_available",
        "fail",
        QT_TRANSLATE_NOOP("doctor", "False although an NVIDIA GPU is present{why}"),
        {"why": f" ({why})" if why else ""},
        QT_TRANSLATE_NOOP(
            "doctor",
            "Usually the driver is too old for this torch build or was updated without "
            "a reboot; check the driver line above, reboot, and that CUDA_VISIBLE_DEVICES "
            "is not empty.",
        ),
        rules=("CUD-5", "CUD-3"),
    )


@check
def cudnn(f: Facts) -> Check:
    """CUD-3: the cuDNN bundled with torch loads."""
    if not f.cuda_checked:
        return Check("cudnn", "skip", NO_GPU if not f.has_gpu else NO_CUDA, rules=("CUD-3",))
    ok, _why = f.cuda
    if not ok:
        return Check(
            "cudnn",
            "skip",
            QT_TRANSLATE_NOOP("doctor", "CUDA is not usable, so cuDNN cannot be checked"),
            rules=("CUD-3",),
        )
    try:
        version = f.t.backends.cudnn.version()
    except Exception:
        version = None
    if version:
        return Check(
            "cudnn",
            "pass",
            QT_TRANSLATE_NOOP("doctor", "cuDNN {version} (bundled with torch)"),
            {"version": version},
            rules=("CUD-3",),
        )
    return Check(
        "cudnn",
        "fail",
        QT_TRANSLATE_NOOP("doctor", "torch cannot load cuDNN"),
        {},
        QT_TRANSLATE_NOOP(
            "doctor",
            "Reinstall torch from the pip wheel (it bundles cuDNN); remove a system cuDNN "
            "from LD_LIBRARY_PATH if it shadows the bundled one.",
        ),
        rules=("CUD-3",),
    )


@check
def arch(f: Facts) -> Check:
    """CUD-3: every GPU's compute capability is in torch's architectures."""
    if not f.cuda[0]:
        return Check("arch", "skip", QT_TRANSLATE_NOOP("doctor", "no usable CUDA device"), rules=("CUD-3",))
    t = f.t
    archs = list(t.cuda.get_arch_list())
    bad = []
    for i in range(t.cuda.device_count()):
        major, minor = t.cuda.get_device_capability(i)
        if not arch_supported(major, minor, archs):
            bad.append(f"{t.cuda.get_device_name(i)} (sm_{major}{minor})")
    if bad:
        return Check(
            "arch",
            "fail",
            QT_TRANSLATE_NOOP("doctor", "{gpus} not in this torch build's architectures: {archs}"),
            {"gpus": ", ".join(bad), "archs": " ".join(archs)},
            QT_TRANSLATE_NOOP(
                "doctor",
                "Install a torch build that lists this architecture (a newer CUDA wheel for "
                "new GPUs, an older one for old GPUs).",
            ),
            rules=("CUD-3",),
        )
    return Check(
        "arch",
        "pass",
        QT_TRANSLATE_NOOP("doctor", "every GPU is covered by {archs}"),
        {"archs": " ".join(archs)},
        rules=("CUD-3",),
    )


@check
def pcie(f: Facts) -> Check:
    """PCI-3: each GPU's link runs on all the lanes it supports."""
    links = [g for g in ((f.p.smi or {}).get("gpus") or f.p.nvidia_pci)]
    if not f.has_gpu or not links:
        return Check(
            "pcie",
            "skip",
            NO_GPU if not f.has_gpu else QT_TRANSLATE_NOOP("doctor", "the link could not be read"),
            rules=("PCI-3",),
        )
    narrow = [
        g for g in links if g.get("width_current") and g.get("width_max") and g["width_current"] < g["width_max"]
    ]
    desc = "; ".join(
        f"{g.get('name') or g.get('bus_id')}: Gen{g.get('gen_max') or '?'} "
        f"x{g.get('width_current') or '?'} (max x{g.get('width_max') or '?'}), ≈"
        f"{pcie_expected_gbps(g.get('gen_max'), g.get('width_current')) or '?'} GB/s"
        for g in links
    )
    if narrow:
        return Check(
            "pcie",
            "warn",
            QT_TRANSLATE_NOOP("doctor", "a GPU runs on fewer lanes than it supports: {links}"),
            {"links": desc},
            QT_TRANSLATE_NOOP(
                "doctor",
                "Move the card to a CPU-attached x16 slot, reseat it, or check which M.2 or "
                "slot shares its lanes (board manual).",
            ),
            rules=("PCI-3", "PCI-1"),
        )
    return Check("pcie", "pass", "{links}", {"links": desc}, rules=("PCI-3",))


@check
def cpu_threads(f: Facts) -> Check:
    """CPU-1: torch uses at least half the physical cores."""
    usable = f.p.cpu.get("usable") or f.p.cpu.get("logical") or 1
    physical = f.p.cpu.get("physical")
    tthreads = f.t.get_num_threads() if f.t is not None else None
    params = {"usable": usable, "physical": physical or "?", "torch": tthreads or "?", "omp": f.p.omp_threads or "-"}
    if tthreads is not None and tthreads < max(1, (physical or usable) // 2):
        return Check(
            "cpu_threads",
            "warn",
            QT_TRANSLATE_NOOP(
                "doctor", "torch uses {torch} threads of {usable} usable ({physical} cores); OMP_NUM_THREADS={omp}"
            ),
            params,
            QT_TRANSLATE_NOOP(
                "doctor",
                "Unset OMP_NUM_THREADS or set it to the number of physical cores; check the "
                "process's CPU affinity (taskset, container CPU limits).",
            ),
            rules=("CPU-1",),
        )
    return Check(
        "cpu_threads",
        "pass",
        QT_TRANSLATE_NOOP(
            "doctor", "torch uses {torch} threads of {usable} usable ({physical} cores); OMP_NUM_THREADS={omp}"
        ),
        params,
        rules=("CPU-1",),
    )


@check
def operating_system(f: Facts) -> Check:
    """CUD-6: Linux or WSL2, not WSL 1 or native Windows."""
    if f.p.wsl == "wsl1":
        return Check(
            "os",
            "fail",
            QT_TRANSLATE_NOOP("doctor", "WSL 1: CUDA does not work under WSL 1"),
            {},
            QT_TRANSLATE_NOOP("doctor", "Convert the distribution: wsl --set-version <distro> 2"),
            rules=("CUD-6",),
        )
    if f.p.wsl == "wsl2":
        return Check(
            "os",
            "pass",
            QT_TRANSLATE_NOOP(
                "doctor",
                "WSL2 ({release}): use the Windows NVIDIA driver, do not install a Linux driver inside WSL",
            ),
            {"release": platform.release()},
            rules=("CUD-6",),
        )
    if f.p.platform.startswith("win"):
        return Check(
            "os",
            "warn",
            QT_TRANSLATE_NOOP("doctor", "native Windows: the guides recommend Ubuntu LTS or WSL2"),
            {},
            QT_TRANSLATE_NOOP("doctor", "Install WSL2 (wsl --install) and run the training inside it."),
            rules=("CUD-6",),
        )
    return Check(
        "os",
        "pass",
        QT_TRANSLATE_NOOP("doctor", "{os}"),
        {"os": f"{platform.system()} {platform.release()}"},
        rules=("CUD-6",),
    )


@check
def venv(f: Facts) -> Check:
    """CUD-6: Python runs in a virtual or conda environment."""
    if f.p.in_venv or f.p.conda:
        return Check(
            "venv",
            "pass",
            QT_TRANSLATE_NOOP("doctor", "isolated: {prefix}"),
            {"prefix": f.p.conda or sys.prefix},
            rules=("CUD-6",),
        )
    return Check(
        "venv",
        "warn",
        QT_TRANSLATE_NOOP("doctor", "Python runs from the system installation {prefix}"),
        {"prefix": sys.prefix},
        QT_TRANSLATE_NOOP(
            "doctor", "Create a virtual environment (python -m venv .venv) or a conda environment per project."
        ),
        rules=("CUD-6",),
    )


@check
def pip_check(f: Facts) -> Check:
    """ENV-1: pip check finds no broken requirements."""
    if f.p.pip_check is None:
        return Check(
            "pip_check",
            "skip",
            QT_TRANSLATE_NOOP("doctor", "pip is not available in this environment"),
            rules=("ENV-1",),
        )
    if f.p.pip_check[0] == 0:
        return Check("pip_check", "pass", QT_TRANSLATE_NOOP("doctor", "no broken requirements"), rules=("ENV-1",))
    lines = f.p.pip_check[1].splitlines()
    return Check(
        "pip_check",
        "fail",
        QT_TRANSLATE_NOOP("doctor", "{n} conflict(s): {lines}"),
        {"n": len(lines), "lines": "; ".join(lines[:5]) + (" …" if len(lines) > 5 else "")},
        QT_TRANSLATE_NOOP(
            "doctor",
            "Install the versions pip asks for (pip install 'package==version'), or start a "
            "fresh environment; conda list / pip list shows what is there.",
        ),
        rules=("ENV-1",),
    )


@check
def paths(f: Facts) -> Check:
    """ENV-2: no non-ASCII characters in the working folder and the model caches."""
    bad_paths = {k: v for k, v in f.p.paths.items() if not v.isascii()}
    if bad_paths:
        return Check(
            "paths",
            "warn",
            QT_TRANSLATE_NOOP("doctor", "non-ASCII characters in {paths}"),
            {"paths": ", ".join(f"{k}={v}" for k, v in bad_paths.items())},
            QT_TRANSLATE_NOOP(
                "doctor",
                "Keep models and caches under ASCII-only paths: e.g. export HF_HOME=/data/hf "
                "TORCH_HOME=/data/torch, and run from an ASCII folder.",
            ),
            rules=("ENV-2",),
        )
    return Check(
        "paths",
        "pass",
        QT_TRANSLATE_NOOP("doctor", "ASCII only: {paths}"),
        {"paths": ", ".join(f"{k}={v}" for k, v in f.p.paths.items())},
        rules=("ENV-2",),
    )


def arch_supported(major: int, minor: int, archs: list[str]) -> bool:
    """Whether torch's kernels run on sm_{major}{minor}: a cubin for the same major and a minor not
    above it (binary compatible), or PTX (compute_XY) for an older or equal architecture."""
    for a in archs:
        kind, _, num = a.partition("_")
        if not num.isdigit() or len(num) < 2:
            continue
        a_major, a_minor = int(num[:-1]), int(num[-1])
        if kind == "sm" and a_major == major and a_minor <= minor:
            return True
        if kind == "compute" and (a_major, a_minor) <= (major, minor):
            return True
    return False


def exit_code(checks: list[Check]) -> int:
    return 1 if any(c.verdict == "fail" for c in checks) else 0
