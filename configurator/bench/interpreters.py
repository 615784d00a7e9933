"""Finding the Python interpreters the benchmarks can run under.

The app may be a frozen bundle without torch, so the worker runs under an interpreter the
user picks, which is also the environment being measured. :func:`candidates` lists the
interpreters on this machine cheaply (existing executable files, no subprocesses);
:func:`probe` asks one of them, in the environment the worker would get, for its Python and
PyTorch versions; :func:`discover` probes them all (a few at a time, in child processes,
without threads) and puts the ones with torch first.

No Qt here; user-visible text is a :class:`~configurator.core.i18n.Message`.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

from configurator.bench.runner import child_env, stop_process_group
from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.paths import is_frozen

MIN_PYTHON = (3, 9)
PROBE_TIMEOUT_S = 20.0
PARALLEL = 4  # probes running at once
MARKER = "@@configurator-probe@@"

# Runs under any Python (2.7 too, so an old one can say its version): no f-strings, no annotations.
PROBE_SCRIPT = r"""
import json, sys
out = {"python": "%d.%d.%d" % tuple(sys.version_info[:3]), "executable": sys.executable,
       "prefix": sys.prefix, "platform": sys.platform}
if sys.version_info >= (3, 9):
    import importlib.util, os
    def has(name):
        try:
            return importlib.util.find_spec(name) is not None
        except Exception:
            return False
    out["torchvision"] = has("torchvision")
    out["transformers"] = has("transformers")
    spec = None
    try:
        spec = importlib.util.find_spec("torch")
    except Exception as exc:
        out["torch_error"] = "%s: %s" % (type(exc).__name__, exc)
    if spec is not None and spec.origin:
        # torch/version.py holds the version and the CUDA/ROCm build without importing torch.
        for folder in spec.submodule_search_locations or []:
            name = os.path.join(folder, "version.py")
            if os.path.isfile(name):
                ns = {}
                try:
                    with open(name, encoding="utf-8") as f:
                        exec(compile(f.read(), name, "exec"), ns)
                except Exception:
                    pass
                for key, field in (("__version__", "torch"), ("cuda", "cuda"), ("hip", "hip")):
                    if isinstance(ns.get(key), str):
                        out[field] = ns[key]
                break
        if "torch" not in out:
            try:
                import importlib.metadata
                out["torch"] = importlib.metadata.version("torch")
            except Exception:
                out["torch_error"] = "torch is installed incompletely (no version found)"
        if len(sys.argv) > 1 and sys.argv[1] == "import":
            try:
                import torch
                out["torch"] = str(torch.__version__)
                out["cuda"] = torch.version.cuda
                out["hip"] = getattr(torch.version, "hip", None)
                out["cuda_available"] = bool(torch.cuda.is_available())
                out.pop("torch_error", None)
            except BaseException as exc:
                out["torch_error"] = "%s: %s" % (type(exc).__name__, exc)
sys.stdout.write("\n" + MARKER + json.dumps(out) + "\n")
""".replace("MARKER", repr(MARKER))


def _msg(text: str, **params: Any) -> Message:
    return Message("bench", text, params)


@dataclass(frozen=True)
class Probe:
    """What one interpreter said about itself. ``error`` set: it cannot run the benchmarks."""

    path: str
    python: str | None = None  # "3.11.9"
    executable: str | None = None  # its sys.executable
    prefix: str | None = None  # its sys.prefix (the environment)
    platform: str | None = None
    torch: str | None = None  # "2.14.1+cu128"; None: no torch
    cuda: str | None = None  # the CUDA version torch was built for (torch.version.cuda)
    hip: str | None = None  # the ROCm version torch was built for
    cuda_available: bool | None = None  # only when torch was imported
    torchvision: bool = False
    transformers: bool = False
    torch_error: str | None = None  # torch is there but broken (or failed to import)
    error: Message | None = None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def has_torch(self) -> bool:
        return self.error is None and self.torch is not None and self.torch_error is None

    def to_json(self, translate: Callable[[str, str], str] | None = None) -> dict[str, Any]:
        problem_ = problem(self)
        return {
            "path": self.path, "python": self.python, "executable": self.executable, "prefix": self.prefix,
            "torch": self.torch, "cuda": self.cuda, "hip": self.hip, "cuda_available": self.cuda_available,
            "torchvision": self.torchvision, "transformers": self.transformers, "usable": self.has_torch,
            "error": problem_.render(translate) if problem_ is not None else None,
        }


ProbeFn = Callable[[Path], Probe]

# -- finding candidates ---------------------------------------------------------------------------


def _is_python_file(path: Path, windows: bool) -> bool:
    try:
        if not path.is_file():
            return False
    except OSError:
        return False
    if windows:
        # The Microsoft Store's "app execution alias" python.exe opens the Store instead of running.
        return path.suffix.lower() == ".exe" and "windowsapps" not in str(path).lower()
    return os.access(path, os.X_OK)


def _env_pythons(root: Path, windows: bool) -> list[Path]:
    """The interpreter of an environment folder (conda env, venv, pyenv version, install folder)."""
    if windows:
        names = [root / "python.exe", root / "Scripts" / "python.exe"]
    else:
        names = [root / "bin" / "python3", root / "bin" / "python"]
    for p in names:
        if _is_python_file(p, windows):
            return [p]
    return []


def _subdirs(folder: Path) -> list[Path]:
    try:
        return sorted((p for p in folder.iterdir() if p.is_dir()), key=lambda p: p.name.lower())
    except OSError:
        return []


_VERSIONED = re.compile(r"^python3\.(\d+)$")


def _path_pythons(path_var: str, windows: bool) -> list[Path]:
    """``python3``, ``python3.x`` (newest first) and ``python`` in each folder on PATH.

    Only absolute folders: an empty entry, ``.`` or ``bin`` names the current folder (or one
    below it), and would run whatever file called ``python3`` lies where the app was started.
    """
    found: list[Path] = []
    for folder in (Path(d) for d in path_var.split(os.pathsep) if d and Path(d).is_absolute()):
        if folder.name == "shims":  # pyenv/asdf shims: the versions themselves are listed below
            continue
        if windows:
            names = ["python3.exe", "python.exe"]
        else:
            try:
                listing = os.listdir(folder)
            except OSError:
                continue
            minors = sorted((int(m.group(1)) for m in map(_VERSIONED.match, listing) if m), reverse=True)
            names = ["python3", *(f"python3.{m}" for m in minors), "python"]
        found.extend(p for p in (folder / n for n in names) if _is_python_file(p, windows))
    return found


def _conda_roots(home: Path, env: Mapping[str, str], windows: bool) -> list[Path]:
    names = ["miniconda3", "anaconda3", "miniforge3", "mambaforge", "micromamba", "miniconda", "anaconda"]
    if windows:
        bases = [home, *(Path(env[k]) for k in ("LOCALAPPDATA", "ProgramData") if env.get(k))]
        return [b / n for b in bases for n in names]
    return [*(home / n for n in names), Path("/opt/conda"), *(Path("/opt") / n for n in names)]


def _conda_listed(home: Path) -> list[Path]:
    """Environments conda itself recorded (``~/.conda/environments.txt``)."""
    try:
        text = (home / ".conda" / "environments.txt").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [Path(line.strip()) for line in text.splitlines() if line.strip()]


def _candidate_groups(home: Path, env: Mapping[str, str], windows: bool) -> Iterable[list[Path]]:
    """Candidates in order of preference, lazily, a group at a time."""
    if not is_frozen() and sys.executable:
        yield [Path(sys.executable)]
    for var in ("CONDA_PREFIX", "VIRTUAL_ENV"):
        if env.get(var) and Path(env[var]).is_absolute():  # relative: the current folder's, as on PATH
            yield _env_pythons(Path(env[var]), windows)
    yield _path_pythons(env.get("PATH", ""), windows)
    if windows:
        yield _windows_launcher_pythons(env)
    for root in _conda_roots(home, env, windows):
        yield _env_pythons(root, windows)
        for sub in _subdirs(root / "envs"):
            yield _env_pythons(sub, windows)
    for sub in _subdirs(home / ".conda" / "envs"):
        yield _env_pythons(sub, windows)
    for root in _conda_listed(home):
        yield _env_pythons(root, windows)
    pyenv = Path(env["PYENV_ROOT"]) if env.get("PYENV_ROOT") else home / (".pyenv" if not windows else
                                                                           ".pyenv/pyenv-win")
    # Newest version first: "3.12.1" before "3.9.18".
    for sub in sorted(_subdirs(pyenv / "versions"), key=lambda p: _version_key(p.name), reverse=True):
        yield _env_pythons(sub, windows)
    venv_homes = [home / ".virtualenvs", home / ".local" / "share" / "virtualenvs",
                  home / ".cache" / "pypoetry" / "virtualenvs", home / ".venvs"]
    if env.get("WORKON_HOME"):
        venv_homes.insert(0, Path(env["WORKON_HOME"]))
    for folder in venv_homes:
        for sub in _subdirs(folder):
            yield _env_pythons(sub, windows)
    if not windows:
        yield [p for p in (Path("/usr/local/bin/python3"), Path("/usr/bin/python3")) if _is_python_file(p, False)]


def _windows_launcher_pythons(env: Mapping[str, str]) -> list[Path]:
    """Installs from python.org (what the ``py`` launcher finds) in the usual folders."""
    bases = []
    if env.get("LOCALAPPDATA"):
        bases.append(Path(env["LOCALAPPDATA"]) / "Programs" / "Python")
    for key in ("ProgramFiles", "ProgramW6432", "ProgramFiles(x86)"):
        if env.get(key):
            bases.append(Path(env[key]))
    if env.get("SystemDrive"):
        bases.append(Path(env["SystemDrive"] + "\\"))
    found = []
    for base in bases:
        subs = [s for s in _subdirs(base) if re.match(r"^python\d", s.name, re.IGNORECASE)]
        for sub in sorted(subs, key=lambda s: _version_key(s.name), reverse=True):
            found += _env_pythons(sub, True)
    return found


def _version_key(text: str) -> tuple[int, ...]:
    """``"3.12.1"`` → (3, 12, 1); ``"Python312"`` → (312,); the leading numeric release only."""
    m = re.search(r"\d+(?:\.\d+)*", text)
    return tuple(int(x) for x in m.group(0).split(".")) if m else ()


def identity(path: Path | str) -> tuple[str, str]:
    """Two paths are the same interpreter when they resolve to the same file *and* belong to the
    same environment: a venv's ``bin/python`` links to the base interpreter but is not it."""
    p = Path(path).absolute()
    env_root = ""
    for folder in (p.parent, p.parent.parent):
        if (folder / "pyvenv.cfg").is_file():
            env_root = os.path.normcase(str(folder))
            break
    try:
        resolved = p.resolve()
    except (OSError, RuntimeError):
        resolved = p
    return env_root, os.path.normcase(str(resolved))


def candidates(env: Mapping[str, str] | None = None, home: Path | None = None,
               windows: bool | None = None) -> list[Path]:
    """Python interpreters on this machine, most relevant first, each once; no subprocesses.

    ``env``, ``home`` and ``windows`` default to this process's environment, home folder and OS
    (tests pass fakes)."""
    env = os.environ if env is None else env
    windows = (os.name == "nt") if windows is None else windows
    if home is None:
        home = Path(env.get("USERPROFILE" if windows else "HOME") or Path.home())
    seen: set[tuple[str, str]] = set()
    out: list[Path] = []
    for group in _candidate_groups(home, env, windows):
        for path in group:
            key = identity(path)
            if key not in seen:
                seen.add(key)
                out.append(path)
    return out


# -- probing ---------------------------------------------------------------------------------------


def _child_env() -> dict[str, str]:
    """The environment the worker gets, so the probe sees the packages the worker will."""
    return child_env()


@dataclass
class _Child:
    path: Path
    proc: subprocess.Popen[bytes]
    out: IO[bytes]
    err: IO[bytes]
    started: float
    deadline: float


def _start(path: Path, import_torch: bool, timeout_s: float, env: dict[str, str]) -> _Child | Probe:
    if not path.exists():
        return Probe(str(path), error=_msg(QT_TRANSLATE_NOOP("bench", "there is no file {path}"), path=str(path)))
    if path.is_dir() or not os.access(path, os.X_OK):
        return Probe(str(path), error=_msg(QT_TRANSLATE_NOOP("bench", "{path} is not a program"), path=str(path)))
    out = tempfile.TemporaryFile()  # noqa: SIM115 - closed when the child has been read (_finish, _kill)
    err = tempfile.TemporaryFile()  # noqa: SIM115
    kw: dict[str, Any] = {}
    if os.name == "nt":
        kw["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0) | getattr(
            subprocess, "CREATE_NO_WINDOW", 0)
    else:
        kw["start_new_session"] = True  # a timeout kills whatever the interpreter started too
    argv = [str(path), "-c", PROBE_SCRIPT, *(["import"] if import_torch else [])]
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env, **kw)
    except (OSError, ValueError) as exc:
        out.close()
        err.close()
        reason = getattr(exc, "strerror", None) or str(exc)
        return Probe(str(path), error=_msg(QT_TRANSLATE_NOOP("bench", "it cannot be started: {error}"),
                                           error=reason))
    now = time.monotonic()
    return _Child(path, proc, out, err, now, now + timeout_s)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    stop_process_group(proc, getattr(signal, "SIGKILL", signal.SIGTERM))
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=5)


def _read(f: IO[bytes]) -> str:
    f.seek(0)
    data = f.read(1 << 20)
    f.close()
    return data.decode("utf-8", errors="replace")


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _finish(child: _Child) -> Probe:
    stdout, stderr = _read(child.out), _read(child.err)
    rc = child.proc.returncode
    seconds = round(time.monotonic() - child.started, 3)
    path = str(child.path)
    answer = None
    for line in reversed(stdout.splitlines()):
        if line.startswith(MARKER):
            answer = line[len(MARKER):]
            break
    if answer is None:
        if rc:
            last = next((ln for ln in reversed(stderr.splitlines()) if ln.strip()), "")
            return Probe(path, seconds=seconds, error=_msg(QT_TRANSLATE_NOOP(
                "bench", "it ended with exit code {code}: {detail}"), code=rc, detail=_short(last) or "—"))
        return Probe(path, seconds=seconds, error=_msg(QT_TRANSLATE_NOOP(
            "bench", "its answer was not understood: {output}"), output=_short(stdout + stderr) or "—"))
    try:
        doc = json.loads(answer)
        if not isinstance(doc, dict) or not isinstance(doc.get("python"), str):
            raise ValueError(answer)
    except ValueError:
        return Probe(path, seconds=seconds, error=_msg(QT_TRANSLATE_NOOP(
            "bench", "its answer was not understood: {output}"), output=_short(answer)))

    def s(key: str) -> str | None:
        v = doc.get(key)
        return v if isinstance(v, str) and v else None

    cuda_available = doc.get("cuda_available")
    probe = Probe(
        path, python=s("python"), executable=s("executable"), prefix=s("prefix"), platform=s("platform"),
        torch=s("torch"), cuda=s("cuda"), hip=s("hip"),
        cuda_available=cuda_available if isinstance(cuda_available, bool) else None,
        torchvision=doc.get("torchvision") is True, transformers=doc.get("transformers") is True,
        torch_error=s("torch_error"), seconds=seconds)
    version = _version_key(probe.python or "")
    if version < MIN_PYTHON:
        return replace(probe, error=_msg(QT_TRANSLATE_NOOP(
            "bench", "Python {version} is too old: the benchmarks need Python {minimum} or newer"),
            version=probe.python, minimum=".".join(map(str, MIN_PYTHON))))
    return probe


def probe_many(paths: Sequence[Path | str], timeout_s: float = PROBE_TIMEOUT_S, import_torch: bool = False,
               parallel: int = PARALLEL, cancelled: Callable[[], bool] | None = None) -> list[Probe]:
    """Probe several interpreters, ``parallel`` child processes at a time (no threads: it runs
    on a worker thread of the GUI). Never raises; ``cancelled()`` true kills what is running."""
    todo = [Path(p) for p in paths]
    results: list[Probe | None] = [None] * len(todo)
    queue = list(range(len(todo)))[::-1]
    running: dict[int, _Child] = {}
    env = _child_env()
    try:
        while queue or running:
            stop = cancelled is not None and cancelled()
            while queue and len(running) < max(1, parallel) and not stop:
                i = queue.pop()
                started = _start(todo[i], import_torch, timeout_s, env)
                if isinstance(started, Probe):
                    results[i] = started
                else:
                    running[i] = started
            now = time.monotonic()
            for i, child in list(running.items()):
                if child.proc.poll() is not None:
                    results[i] = _finish(child)
                elif stop or now >= child.deadline:
                    _kill(child.proc)
                    child.out.close()
                    child.err.close()
                    results[i] = Probe(str(child.path), seconds=round(now - child.started, 3), error=_msg(
                        QT_TRANSLATE_NOOP("bench", "the search was cancelled") if stop else
                        QT_TRANSLATE_NOOP("bench", "it did not answer within {seconds} s"),
                        seconds=f"{timeout_s:g}"))
                else:
                    continue
                del running[i]
            if stop:
                for i in queue:
                    results[i] = Probe(str(todo[i]), error=_msg(QT_TRANSLATE_NOOP("bench",
                                                                                  "the search was cancelled")))
                queue.clear()
            if running:
                time.sleep(0.02)
    finally:
        for child in running.values():
            _kill(child.proc)
            child.out.close()
            child.err.close()
    return [r if r is not None else Probe(str(p), error=_msg(QT_TRANSLATE_NOOP("bench", "the search was cancelled")))
            for r, p in zip(results, todo, strict=True)]


def probe(path: Path | str, timeout_s: float = PROBE_TIMEOUT_S, import_torch: bool = False) -> Probe:
    """Ask one interpreter for its Python and PyTorch versions, in the environment the worker gets.

    Without ``import_torch`` the torch version and CUDA build are read from torch's files (quick);
    with it torch is imported (seconds), which also proves it loads and reads
    ``torch.cuda.is_available()``. Never raises: a problem is the Probe's ``error``."""
    return probe_many([path], timeout_s=timeout_s, import_torch=import_torch)[0]


def _torch_key(p: Probe) -> tuple[int, ...]:
    return _version_key((p.torch or "").split("+")[0])


def discover(probe_fn: ProbeFn | None = None, paths: Sequence[Path] | None = None, *,
             timeout_s: float = PROBE_TIMEOUT_S, import_torch: bool = False,
             cancelled: Callable[[], bool] | None = None) -> list[Probe]:
    """Probe every candidate: the ones with torch first (newest torch first), then the ones
    without, then those that cannot run the benchmarks (with the reason). Interpreters that turn
    out to be the same environment (a link, a shim) are listed once.

    ``probe_fn`` (tests) probes one path; by default they are probed a few at a time."""
    paths = candidates() if paths is None else list(paths)
    if probe_fn is None:
        probes = probe_many(paths, timeout_s=timeout_s, import_torch=import_torch, cancelled=cancelled)
    else:
        probes = [probe_fn(Path(p)) for p in paths]
    seen: set[tuple[str, str]] = set()
    unique = []
    for p in probes:
        if p.ok and p.executable and p.prefix:
            key = (os.path.normcase(os.path.realpath(p.prefix)), identity(p.executable)[1])
            if key in seen:
                continue
            seen.add(key)
        unique.append(p)
    rank = {id(p): i for i, p in enumerate(unique)}

    def order(p: Probe) -> tuple[int, tuple[int, ...], int]:
        group = 0 if p.has_torch else 1 if p.ok else 2
        return group, tuple(-x for x in _torch_key(p)) if group == 0 else (), rank[id(p)]

    return sorted(unique, key=order)


def default_python(discover_fn: Callable[[], list[Probe]] | None = None) -> str | None:
    """The interpreter to run the benchmarks under when none was chosen: this one from a source
    install; in a frozen bundle (which has no torch) the first one found with torch, else None."""
    if not is_frozen():
        return sys.executable
    found = (discover_fn or discover)()
    return next((p.path for p in found if p.has_torch), None)


# -- describing ------------------------------------------------------------------------------------


def torch_summary(p: Probe) -> Message:
    """``torch 2.14.1 (CUDA 12.8)``, ``torch 2.5.1 (CPU only)``, ``no PyTorch``."""
    if p.torch is None:
        return _msg(QT_TRANSLATE_NOOP("bench", "no PyTorch"))
    version = p.torch.split("+")[0]
    if p.torch_error is not None:
        return _msg(QT_TRANSLATE_NOOP("bench", "torch {version} (broken)"), version=version)
    if p.cuda:
        return _msg(QT_TRANSLATE_NOOP("bench", "torch {version} (CUDA {cuda})"), version=version, cuda=p.cuda)
    if p.hip:
        return _msg(QT_TRANSLATE_NOOP("bench", "torch {version} (ROCm {rocm})"), version=version, rocm=p.hip)
    if p.torch.endswith("+cpu") or p.platform not in (None, "darwin"):
        return _msg(QT_TRANSLATE_NOOP("bench", "torch {version} (CPU only)"), version=version)
    return _msg(QT_TRANSLATE_NOOP("bench", "torch {version}"), version=version)


def describe(p: Probe) -> Message:
    """One line for a list: ``Python 3.11.9 · torch 2.14.1 (CUDA 12.8)``, or why it cannot be used."""
    if p.error is not None:
        return p.error
    return _msg(QT_TRANSLATE_NOOP("bench", "Python {python} · {torch}"), python=p.python or "?",
                torch=torch_summary(p))


def pip_command(python: str) -> str:
    quoted = subprocess.list2cmdline([python]) if os.name == "nt" else shlex.quote(python)
    return f"{quoted} -m pip install torch torchvision"


def problem(p: Probe) -> Message | None:
    """Why the benchmarks cannot run under this interpreter (None: they can)."""
    if p.error is not None:
        return _msg(QT_TRANSLATE_NOOP("bench", "{python} cannot run the benchmarks: {reason}"), python=p.path,
                    reason=p.error)
    if p.torch is None:
        return _msg(QT_TRANSLATE_NOOP(
            "bench", "There is no PyTorch in {python}. Install it with “{command}” (pytorch.org gives the "
                     "command for your CUDA version), or choose another interpreter."),
            python=p.path, command=pip_command(p.path))
    if p.torch_error is not None:
        return _msg(QT_TRANSLATE_NOOP("bench", "PyTorch in {python} does not load: {error}"), python=p.path,
                    error=_short(p.torch_error))
    return None
