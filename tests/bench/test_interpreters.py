"""Finding and probing Python interpreters: fake conda/pyenv/venv trees under a temporary home,
tiny shell-script "pythons" that answer, fail, hang or talk nonsense, and one real probe."""

from __future__ import annotations

import json
import os
import select
import sys
import time
from pathlib import Path

import pytest

from configurator.bench import interpreters as itp
from configurator.bench.interpreters import Probe

pytestmark = pytest.mark.skipif(os.name == "nt", reason="the fake interpreters are shell scripts")


def script(path: Path, body: str, mode: int = 0o755) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body + "\n", encoding="utf-8")
    path.chmod(mode)
    return path


def answering(path: Path, **doc: object) -> Path:
    """A fake interpreter that prints a probe answer (after some noise, as a sitecustomize might)."""
    doc = {"python": "3.12.3", "executable": str(path), "prefix": str(path.parent.parent), "platform": "linux",
           "torchvision": False, "transformers": False, **doc}
    return script(path, f"echo 'Welcome to this environment'\necho '{itp.MARKER}{json.dumps(doc)}'")


def under(tmp: Path, paths: list[Path]) -> list[Path]:
    return [p for p in paths if tmp in p.parents]


# -- candidates ---------------------------------------------------------------------------------


def test_candidates_in_order_each_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    bin_ = tmp_path / "bin"
    py312 = script(bin_ / "python3.12", "exit 0")
    (bin_ / "python3").symlink_to("python3.12")  # the same file: listed once
    py39 = script(bin_ / "python3.9", "exit 0")
    script(bin_ / "python3.10", "exit 0", mode=0o644)  # not executable
    script(bin_ / "python3-config", "exit 0")  # not an interpreter
    py = script(bin_ / "python", "exit 0")
    script(tmp_path / "shims" / "python3", "exit 0")  # pyenv shims are skipped
    venv = tmp_path / "proj" / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = " + str(bin_) + "\n", encoding="utf-8")
    (venv / "bin" / "python").symlink_to(py312)  # links to python3.12, but is another environment
    conda = home / "miniconda3"
    conda_base = script(conda / "bin" / "python3", "exit 0")
    conda_torch = script(conda / "envs" / "torch" / "bin" / "python", "exit 0")
    (conda / "envs" / "broken").mkdir(parents=True)  # no interpreter inside
    forge = script(home / "miniforge3" / "envs" / "dl" / "bin" / "python3", "exit 0")
    dot_conda = script(home / ".conda" / "envs" / "old" / "bin" / "python", "exit 0")
    listed = script(tmp_path / "elsewhere" / "env" / "bin" / "python", "exit 0")
    (home / ".conda" / "environments.txt").write_text(f"{conda}\n{listed.parent.parent}\n", encoding="utf-8")
    pyenv_old = script(home / ".pyenv" / "versions" / "3.9.18" / "bin" / "python3", "exit 0")
    pyenv_new = script(home / ".pyenv" / "versions" / "3.12.1" / "bin" / "python3", "exit 0")
    pyenv_10 = script(home / ".pyenv" / "versions" / "3.10.13" / "bin" / "python3", "exit 0")
    wrapper = script(home / ".virtualenvs" / "work" / "bin" / "python", "exit 0")
    pipenv = script(home / ".local" / "share" / "virtualenvs" / "app-x1y2" / "bin" / "python", "exit 0")
    env = {"HOME": str(home), "PATH": os.pathsep.join([str(tmp_path / "shims"), str(bin_), str(tmp_path / "none")]),
           "VIRTUAL_ENV": str(venv)}
    monkeypatch.delattr(sys, "frozen", raising=False)

    found = itp.candidates(env=env)
    assert found[0] == Path(sys.executable)
    assert under(tmp_path, found) == [
        venv / "bin" / "python",  # VIRTUAL_ENV
        bin_ / "python3", py39, py,  # PATH: python3 (= python3.12), python3.x newest first, python
        conda_base, conda_torch, forge, dot_conda, listed,  # conda
        pyenv_new, pyenv_10, pyenv_old,  # pyenv, newest first
        wrapper, pipenv,  # virtualenvwrapper, pipenv
    ]
    assert len({itp.identity(p) for p in found}) == len(found)

    monkeypatch.setattr(sys, "frozen", True, raising=False)  # the bundle itself is no candidate
    frozen = itp.candidates(env=env)
    assert Path(sys.executable) not in frozen and under(tmp_path, frozen) == under(tmp_path, found)


def test_relative_path_entries_are_not_searched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``.``, an empty entry and ``bin`` on PATH name the current folder: a python3 lying there is no candidate."""
    cwd = tmp_path / "downloads"
    planted = [script(cwd / "python3", "exit 0"), script(cwd / "bin" / "python3", "exit 0"),
               script(cwd / "python", "exit 0")]
    real = script(tmp_path / "usr" / "bin" / "python3", "exit 0")
    monkeypatch.chdir(cwd)
    monkeypatch.delattr(sys, "frozen", raising=False)
    env = {"HOME": str(tmp_path / "home"), "VIRTUAL_ENV": ".",
           "PATH": os.pathsep.join([".", "", "bin", str(real.parent), "./bin"])}
    found = itp.candidates(env=env)
    assert under(tmp_path, found) == [real]
    assert not {itp.identity(p) for p in planted} & {itp.identity(p) for p in found}
    env["PATH"] = ":" + str(real.parent) + ":"  # leading and trailing empty entries
    assert under(tmp_path, itp.candidates(env=env)) == [real]


def test_candidates_windows_layout(tmp_path: Path) -> None:
    """The Windows folders (python.exe at the env root, Scripts\\ in venvs, python.org installs),
    checked on any OS."""
    home = tmp_path / "Users" / "me"
    local = home / "AppData" / "Local"
    py312 = script(local / "Programs" / "Python" / "Python312" / "python.exe", "")
    py310 = script(local / "Programs" / "Python" / "Python310" / "python.exe", "")
    conda = script(home / "miniconda3" / "python.exe", "")
    conda_env = script(home / "miniconda3" / "envs" / "torch" / "python.exe", "")
    venv = script(home / ".virtualenvs" / "proj" / "Scripts" / "python.exe", "")
    store_stub = script(local / "Microsoft" / "WindowsApps" / "python.exe", "")  # opens the Store: skipped
    script(home / ".pyenv" / "versions" / "3.11.0" / "bin" / "python3", "")  # the POSIX layout is not looked for
    env = {"USERPROFILE": str(home), "LOCALAPPDATA": str(local), "PATH": str(store_stub.parent)}
    found = under(tmp_path, itp.candidates(env=env, windows=True))
    assert found == [py312, py310, conda, conda_env, venv]


# -- probing ------------------------------------------------------------------------------------


def test_probe_reads_a_canned_answer(tmp_path: Path) -> None:
    py = answering(tmp_path / "env" / "bin" / "python", torch="2.14.1+cu128", cuda="12.8", torchvision=True)
    p = itp.probe(py)
    assert p.ok and p.has_torch and p.error is None
    assert (p.python, p.torch, p.cuda, p.torchvision, p.transformers) == ("3.12.3", "2.14.1+cu128", "12.8", True,
                                                                         False)
    assert itp.describe(p).render() == "Python 3.12.3 · torch 2.14.1 (CUDA 12.8)"
    assert itp.problem(p) is None


@pytest.mark.parametrize("body, expected", [
    ("echo 'Traceback: boom' >&2; exit 3", "it ended with exit code 3: Traceback: boom"),
    ("echo hello there", "its answer was not understood: hello there"),
    (f"echo '{itp.MARKER}{{not json'", "its answer was not understood: {not json"),
    (f"echo '{itp.MARKER}{{\"python\": \"3.8.10\"}}'",
     "Python 3.8.10 is too old: the benchmarks need Python 3.9 or newer"),
    ("kill -9 $$", "it ended with exit code -9: —"),
])
def test_probe_errors_never_raise(tmp_path: Path, body: str, expected: str) -> None:
    p = itp.probe(script(tmp_path / "python3", body))
    assert not p.ok and not p.has_torch
    assert p.error is not None and p.error.render() == expected
    problem = itp.problem(p)
    assert problem is not None and problem.render().startswith(f"{tmp_path / 'python3'} cannot run the benchmarks")


def test_probe_of_what_is_not_an_interpreter(tmp_path: Path) -> None:
    assert itp.probe(tmp_path / "nope").error.render() == f"there is no file {tmp_path / 'nope'}"  # type: ignore[union-attr]
    assert itp.probe(tmp_path).error.render() == f"{tmp_path} is not a program"  # type: ignore[union-attr]
    plain = script(tmp_path / "python", "", mode=0o644)
    assert itp.probe(plain).error.render() == f"{plain} is not a program"  # type: ignore[union-attr]
    wrong = script(tmp_path / "bad", "")
    wrong.write_bytes(b"\x7fELF garbage")  # executable bit, but not a program the kernel can start
    p = itp.probe(wrong)
    assert p.error is not None and "cannot be started" in p.error.render()


def test_probe_timeout_kills_the_interpreter_and_its_children(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    py = script(tmp_path / "python3", f"sleep 30 & echo $! > {pid_file}\nsleep 30")
    start = time.monotonic()
    p = itp.probe(py, timeout_s=0.5)
    assert time.monotonic() - start < 5
    assert p.error is not None and p.error.render() == "it did not answer within 0.5 s"
    child = int(pid_file.read_text())
    wait_for_exit(child, 5.0)  # the background sleep went with the process group
    assert not alive(child), "the interpreter's child survived the timeout"


def wait_for_exit(pid: int, timeout_s: float) -> None:
    """Until a process (not ours, so no waitpid) has ended: a pidfd becomes readable when it does."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        select.select([fd], [], [], timeout_s)
    finally:
        os.close(fd)


def alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper that a container may lack counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_probe_many_runs_in_parallel_and_can_be_cancelled(tmp_path: Path) -> None:
    slow = [script(tmp_path / f"python{i}", f"sleep 0.6; echo '{itp.MARKER}{{\"python\": \"3.11.{i}\"}}'")
            for i in range(4)]
    start = time.monotonic()
    probes = itp.probe_many(slow, parallel=4)
    assert time.monotonic() - start < 2.0  # not 4 × 0.6 s
    assert [p.python for p in probes] == ["3.11.0", "3.11.1", "3.11.2", "3.11.3"]

    hang = [script(tmp_path / f"hang{i}", "exec sleep 30") for i in range(3)]
    start = time.monotonic()
    probes = itp.probe_many(hang, parallel=2, cancelled=lambda: time.monotonic() - start > 0.3)
    assert time.monotonic() - start < 5
    assert all(p.error is not None and p.error.render() == "the search was cancelled" for p in probes)


def test_torch_that_does_not_load(tmp_path: Path) -> None:
    py = answering(tmp_path / "python3", torch="2.3.0", torch_error="OSError: libcudnn.so.9: cannot open")
    p = itp.probe(py, import_torch=True)
    assert p.ok and not p.has_torch
    assert itp.describe(p).render() == "Python 3.12.3 · torch 2.3.0 (broken)"
    problem = itp.problem(p)
    assert problem is not None and "does not load: OSError: libcudnn.so.9" in problem.render()


def test_no_torch_says_how_to_install_it(tmp_path: Path) -> None:
    py = answering(tmp_path / "my env" / "python3")
    p = itp.probe(py)
    assert p.ok and p.torch is None and not p.has_torch
    assert itp.describe(p).render() == "Python 3.12.3 · no PyTorch"
    text = itp.problem(p).render()  # type: ignore[union-attr]
    assert text.startswith(f"There is no PyTorch in {py}.")
    assert f"'{py}' -m pip install torch torchvision" in text  # quoted: the path has a space


@pytest.mark.parametrize("probe, text", [
    (Probe("p", python="3.11.2", torch="2.5.1+cpu", platform="linux"), "torch 2.5.1 (CPU only)"),
    (Probe("p", python="3.11.2", torch="2.5.1", platform="win32"), "torch 2.5.1 (CPU only)"),
    (Probe("p", python="3.11.2", torch="2.5.1", platform="darwin"), "torch 2.5.1"),
    (Probe("p", python="3.11.2", torch="2.5.1+rocm6.2", hip="6.2.41133", platform="linux"),
     "torch 2.5.1 (ROCm 6.2.41133)"),
])
def test_torch_summary(probe: Probe, text: str) -> None:
    assert itp.torch_summary(probe).render() == text


@pytest.mark.full_env
def test_real_probe_of_this_interpreter_is_quick() -> None:
    """This venv has torch; without importing it the answer comes from torch's files."""
    import torch

    p = itp.probe(sys.executable)
    assert p.ok and p.has_torch, p
    assert p.python == ".".join(map(str, sys.version_info[:3]))
    assert p.torch == torch.__version__ and p.cuda == torch.version.cuda
    assert p.cuda_available is None  # not imported
    assert p.seconds < 3


@pytest.mark.slow
@pytest.mark.full_env
def test_real_probe_importing_torch() -> None:
    import torch

    p = itp.probe(sys.executable, import_torch=True, timeout_s=120)
    assert p.has_torch and p.torch == torch.__version__
    assert p.cuda_available == torch.cuda.is_available()


# -- discover and the default ------------------------------------------------------------------


def fake(path: str, torch: str | None = None, error: bool = False, **kw: object) -> Probe:
    from configurator.core.i18n import Message

    return Probe(path, python="3.11.9", executable=path, prefix=path + "-env", torch=torch,
                 error=Message("bench", "broken") if error else None, **kw)  # type: ignore[arg-type]


def test_discover_orders_torch_first_newest_first() -> None:
    table = {p.path: p for p in [fake("/a"), fake("/b", "2.3.1"), fake("/c", error=True), fake("/d", "2.14.1+cu128"),
                                  fake("/e", "2.9.0", torch_error="ImportError"), fake("/f", "2.3.1")]}
    found = itp.discover(lambda p: table[str(p)], paths=[Path(k) for k in table])
    assert [p.path for p in found] == ["/d", "/b", "/f", "/a", "/e", "/c"]


def test_discover_lists_one_environment_once(tmp_path: Path) -> None:
    real = answering(tmp_path / "env" / "bin" / "python3.12", torch="2.4.0")
    shim = script(tmp_path / "wrapper" / "python3", f"exec {real} \"$@\"")  # answers with real's identity
    other = answering(tmp_path / "other" / "bin" / "python3")
    found = itp.discover(paths=[shim, real, other])
    assert [p.path for p in found] == [str(shim), str(other)]


def test_default_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(sys, "frozen", raising=False)
    assert itp.default_python(lambda: pytest.fail("no search needed")) == sys.executable
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert itp.default_python(lambda: [fake("/a"), fake("/b", "2.3.1"), fake("/c", "2.14.1")]) == "/b"
    assert itp.default_python(lambda: [fake("/a"), fake("/c", error=True)]) is None


def test_probe_to_json() -> None:
    doc = fake("/x", "2.14.1+cu128", cuda="12.8").to_json()
    assert doc["usable"] is True and doc["error"] is None and doc["cuda"] == "12.8"
    doc = fake("/y").to_json()
    assert doc["usable"] is False and "pip install torch" in doc["error"]
