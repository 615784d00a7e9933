"""Bad input on the command line, as a user sees it: exit 2, one line per problem on stderr naming the field
(and the limit), valid JSON on stdout with --json, never a traceback. A handful run the real CLI in a child
process; the many run in-process through the same ``main``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from configurator.cli.entry import main
from configurator.core.build import FORMAT
from tests.cli_run import run

ROOT = Path(__file__).resolve().parents[2]
GOOD = {"format": FORMAT, "name": "Two 3090s", "budget_cny": 40000,
        "parts": [{"id": "nvidia-rtx-3090", "qty": 2}, {"id": "amd-ryzen-9-5950x"}],
        "options": {"hours_per_day": 8, "cloud_cny_per_month": 8000},
        "workload": {"model": "gpt2", "task": "train", "batch_size": 8, "seq_len": 1024}}


def strict_json(text: str) -> Any:
    """JSON as other programs read it: NaN and Infinity are not JSON."""
    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} in the JSON output")
    return json.loads(text, parse_constant=refuse)


def assert_bad_input(code: int, out: str, err: str, *lines: str) -> None:
    """Exit 2; stderr is exactly these lines; with --json (out not empty) stdout names the same problems."""
    assert code == 2, (code, err)
    assert "Traceback" not in err
    assert err.splitlines() == list(lines)
    if out:
        doc = strict_json(out)
        assert doc["ok"] is False and len(doc["errors"]) == len(lines)
        assert [f"{e['path']}: {e['message']}" for e in doc["errors"]] == list(lines)


def cli(db: Path, *argv: str | bytes, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CONFIGURATOR_DB": str(db), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "configurator", *argv], capture_output=True, text=True,
                          env=env, timeout=timeout, errors="replace")


def write(tmp_path: Path, doc: Any = None, raw: bytes | None = None, name: str = "构建.json") -> Path:
    path = tmp_path / name
    path.write_bytes(raw if raw is not None else json.dumps(doc, ensure_ascii=False).encode())
    return path


# -- check: a handful through the real CLI -------------------------------------------------------------------
def test_real_cli_huge_quantity_is_one_line_with_the_limit(tmp_path: Path) -> None:
    path = write(tmp_path, {"format": FORMAT, "parts": [{"id": "nvidia-rtx-3090", "qty": 10**30}]})
    start = time.monotonic()
    proc = cli(tmp_path / "c.db", "check", str(path), "--json")
    assert time.monotonic() - start < 60  # before: 12.5 GB of RAM at qty 1e9, killed at 1e30
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == [
        "parts[0].qty: GPUs: at most 16 in one build, this one has 1000000000000000000000000000000"]
    assert strict_json(proc.stdout)["errors"][0]["path"] == "parts[0].qty"


def test_real_cli_nesting_digits_and_surrogates(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    deep = write(tmp_path, raw=b"[" * 2000 + b"]" * 2000, name="deep.json")
    proc = cli(db, "check", str(deep), "--json")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == [f"{deep}: is nested too deeply: a build file may be at most 32 levels deep"]
    digits = write(tmp_path, raw=b'{"format": "configurator.build/1", "parts": [], "budget_cny": 1' + b"0" * 5000
                   + b"}", name="digits.json")
    proc = cli(db, "check", str(digits))
    assert proc.returncode == 2 and proc.stderr.splitlines() == [
        f"{digits}: has a number with more than 4,300 digits"]
    surrogate = write(tmp_path, raw=b'{"format": "configurator.build/1", "name": "a\\ud800", "parts": []}',
                      name="surrogate.json")
    proc = cli(db, "check", str(surrogate), "--json")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines() == ["name: must not contain U+D800 (character 2): control, "
                                        "bidirectional-override and unpaired surrogate characters are not allowed"]
    strict_json(proc.stdout)


def test_real_cli_undecodable_file_name_is_printed_escaped(tmp_path: Path) -> None:
    name = os.fsencode(tmp_path) + b"/bad-\xff.json"
    proc = subprocess.run([sys.executable, "-m", "configurator", "check", name, "--json"], capture_output=True,
                          env={**os.environ, "CONFIGURATOR_DB": str(tmp_path / "c.db"), "PYTHONPATH": str(ROOT)},
                          timeout=120)
    assert proc.returncode == 2 and b"Traceback" not in proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and b"bad-\\udcff.json" in proc.stderr
    strict_json(proc.stdout.decode())


# -- check: in-process ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("doc", "line"), [
    ({**GOOD, "parts": [{"id": "nvidia-rtx-3090", "qty": 17}]}, "parts[0].qty: GPUs: at most 16 in one build, "
                                                               "this one has 17"),
    ({**GOOD, "budget_cny": 10**309}, "budget_cny: must be at most 100,000,000"),
    ({**GOOD, "budget_cny": 100_000_001}, "budget_cny: must be at most 100,000,000"),
    ({**GOOD, "options": {"hours_per_day": 24.5}}, "options.hours_per_day: must be between 0 and 24"),
    ({**GOOD, "options": {"cloud_cny_per_month": 10_000_001}}, "options.cloud_cny_per_month: must be at most "
                                                              "10,000,000"),
    ({**GOOD, "workload": {**GOOD["workload"], "batch_size": 65_537}}, "workload.batch_size: must be at most "
                                                                       "65,536"),
    ({**GOOD, "workload": {**GOOD["workload"], "seq_len": 2**20 + 1}}, "workload.seq_len: must be at most "
                                                                       "1,048,576"),
    ({**GOOD, "name": "n" * 201}, "name: must be at most 200 characters, not 201"),
    ({**GOOD, "name": "evil\u202etxt.exe"}, "name: must not contain U+202E (character 5): control, "
                                            "bidirectional-override and unpaired surrogate characters are not allowed"),
    ({**GOOD, "parts": [{"id": "nvidia\x00rtx"}]}, "parts[0].id: must not contain U+0000 (character 7): control, "
                                                   "bidirectional-override and unpaired surrogate characters are not "
                                                   "allowed"),
    ({**GOOD, "parts": [{"id": "\u2066x\u2069"}]}, "parts[0].id: must not contain U+2066 (character 1): control, "
                                                   "bidirectional-override and unpaired surrogate characters are not "
                                                   "allowed"),
], ids=["qty", "1e309", "budget", "hours", "cloud", "batch", "seq", "name-length", "bidi", "nul", "isolate"])
def test_check_bounds_one_line_each(capsys: pytest.CaptureFixture[str], db_path: Path, tmp_path: Path,
                                    doc: Any, line: str) -> None:
    path = write(tmp_path, doc)
    for argv in (("check", str(path), "--json"), ("check", str(path))):
        code, out, err = run(capsys, "--db", str(db_path), *argv)
        assert_bad_input(code, out, err, line)


def test_the_good_file_at_the_limits_is_checked(capsys: pytest.CaptureFixture[str], db_path: Path,
                                                tmp_path: Path) -> None:
    doc = {**GOOD, "budget_cny": 100_000_000, "name": "名" * 200, "parts": [{"id": "nvidia-rtx-3090", "qty": 16}],
           "options": {"hours_per_day": 24, "cloud_cny_per_month": 10_000_000},
           "workload": {**GOOD["workload"], "batch_size": 65_536, "seq_len": 2**20}}
    code, out, err = run(capsys, "--db", str(db_path), "check", str(write(tmp_path, doc)), "--json")
    assert code in (0, 1), err
    assert strict_json(out)["budget_cny"] == 100_000_000


def test_unreadable_files(capsys: pytest.CaptureFixture[str], db_path: Path, tmp_path: Path) -> None:
    cases: list[tuple[Path, str]] = [
        (tmp_path, "is a folder, not a build file"),
        (Path("/dev/null"), "is not a regular file"),
        (write(tmp_path, raw=b"\xff\xfe\x00{", name="utf16.json"), "is not UTF-8 text"),
        (write(tmp_path, raw=b" " * (2**20 + 1), name="big.json"), "is too large: a build file may be at most "
                                                                   "1,048,576 bytes"),
        (tmp_path / "missing.json", "No such file or directory"),
    ]
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)  # no writer: opening it must not block
    cases.append((fifo, "is not a regular file"))
    locked = write(tmp_path, GOOD, name="locked.json")
    locked.chmod(0)
    if not os.access(locked, os.R_OK):  # root reads anything
        cases.append((locked, "Permission denied"))
    for path, message in cases:
        code, out, err = run(capsys, "--db", str(db_path), "check", str(path), "--json")
        assert_bad_input(code, out, err, f"{path}: {message}")
    ok = write(tmp_path, raw=json.dumps(GOOD).encode().ljust(2**20), name="padded.json")
    assert run(capsys, "--db", str(db_path), "check", str(ok), "--json")[0] in (0, 1)


def test_a_flood_of_problems_is_capped(capsys: pytest.CaptureFixture[str], db_path: Path, tmp_path: Path) -> None:
    path = write(tmp_path, {**GOOD, **{f"k{i}": i for i in range(5000)}})
    code, out, err = run(capsys, "--db", str(db_path), "check", str(path), "--json")
    assert code == 2 and len(err.splitlines()) == 101 and len(strict_json(out)["errors"]) == 101
    assert err.splitlines()[-1] == f"{path}: 4,900 more problems not shown"


# -- suggest, bench, argparse --------------------------------------------------------------------------------
@pytest.mark.parametrize("budget", ["nan", "inf", "-inf", "1e400", "0", "-5"])
def test_suggest_refuses_a_budget_that_is_not_a_positive_finite_number(
        capsys: pytest.CaptureFixture[str], db_path: Path, budget: str) -> None:
    code, out, err = run(capsys, "--db", str(db_path), "suggest", f"--budget={budget}", "--workload", "resnet50",
                         "--json")
    assert_bad_input(code, out, err, "--budget: must be a positive number of yuan")


def test_suggest_budget_limit(capsys: pytest.CaptureFixture[str], db_path: Path) -> None:
    code, out, err = run(capsys, "--db", str(db_path), "suggest", "--budget", "100000001", "--workload", "resnet50",
                         "--json")
    assert_bad_input(code, out, err, "--budget: must be at most ¥100,000,000")
    code, out, err = run(capsys, "--db", str(db_path), "suggest", "--budget", "1e308", "--workload", "resnet50")
    assert_bad_input(code, out, err, "--budget: must be at most ¥100,000,000")  # it printed 309 digits
    code, out, _ = run(capsys, "--db", str(db_path), "suggest", "--budget", "100000000", "--workload", "resnet50",
                       "--json")
    assert code == 0 and strict_json(out)["budget_cny"] == 100_000_000


def test_suggest_workload_bounds(capsys: pytest.CaptureFixture[str], db_path: Path) -> None:
    base = ("--db", str(db_path), "suggest", "--budget", "20000", "--workload", "gpt2", "--json")
    assert_bad_input(*run(capsys, *base, "--batch-size", "65537"), "--batch-size: must be at most 65,536")
    assert_bad_input(*run(capsys, *base, "--seq-len", "1048577"), "--seq-len: must be at most 1,048,576")
    code, out, err = run(capsys, *base, "--seq-len", "9" * 5000)  # int() would refuse more than 4,300 digits
    assert code == 2 and len(err.splitlines()) == 1 and len(err) < 400 and "--seq-len" in err
    assert strict_json(out)["ok"] is False
    code, _out, err = run(capsys, "--db", str(db_path), "suggest", "--budget", "20000", "--workload",
                          "\u202egpt2" * 100)
    assert code == 2 and "\u202e" not in err and len(err) < 400


def test_argparse_errors_give_json_when_main_is_called_with_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "suggest", "--budget", "lots", "--workload", "gpt2", "--json")
    assert code == 2 and len(err.splitlines()) == 1 and "--budget" in err
    assert strict_json(out)["errors"][0]["path"] == "argv"


@pytest.mark.parametrize(("flag", "value", "line"), [
    ("--timeout", "nan", "--timeout: must be more than 0 seconds"),  # nan turned the timeout off
    ("--timeout", "inf", "--timeout: must be more than 0 seconds"),
    ("--timeout", "0", "--timeout: must be more than 0 seconds"),
    ("--timeout", "-1", "--timeout: must be more than 0 seconds"),
    ("--timeout", "86401", "--timeout: must be at most 86,400 seconds (a day)"),
    ("--threads", "1025", "--threads: must be at most 1,024"),
    ("--build", str(2**63), f"--build: no saved build {2**63}"),
    ("--build", "0", "--build: no saved build 0"),
])
def test_bench_argument_bounds(capsys: pytest.CaptureFixture[str], db_path: Path, flag: str, value: str,
                               line: str) -> None:
    code, out, err = run(capsys, "--db", str(db_path), "bench", "--python", sys.executable, f"{flag}={value}",
                         "--json")
    assert_bad_input(code, out, err, line)


@pytest.mark.parametrize(("flag", "value"), [("--timeout", "86400"), ("--timeout", "0.001"),
                                             ("--threads", "1024"), ("--build", str(2**63 - 1))])
def test_bench_arguments_at_the_limit_are_accepted(capsys: pytest.CaptureFixture[str], db_path: Path,
                                                   tmp_path: Path, flag: str, value: str) -> None:
    # Another, unrelated error stops the run before it starts: only that one is reported.
    code, out, err = run(capsys, "--db", str(db_path), "bench", "--python", sys.executable, f"{flag}={value}",
                         "--data-dir", str(tmp_path / "none"), "--json")
    assert_bad_input(code, out, err, f"--data-dir: no such folder: {tmp_path / 'none'}")


# -- monitor --record --------------------------------------------------------------------------------------------
def test_record_refuses_a_symlink_and_an_existing_file(capsys: pytest.CaptureFixture[str], db_path: Path,
                                                       tmp_path: Path) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("keep me", encoding="utf-8")
    link = tmp_path / "记录.csv"
    link.symlink_to(target)
    for extra in ((), ("--force",)):
        code, out, err = run(capsys, "--db", str(db_path), "--fake-gpus", "1", "monitor", "--once", "--json",
                             "--record", str(link), *extra)
        assert_bad_input(code, out, err, f"--record: {link} is a symbolic link; give the file itself")
    dangling = tmp_path / "dangling.csv"
    dangling.symlink_to(tmp_path / "elsewhere.csv")
    code, out, err = run(capsys, "--db", str(db_path), "monitor", "--once", "--record", str(dangling))
    assert_bad_input(code, out, err, f"--record: {dangling} is a symbolic link; give the file itself")
    assert not (tmp_path / "elsewhere.csv").exists()
    code, out, err = run(capsys, "--db", str(db_path), "monitor", "--once", "--json", "--record", str(target))
    assert_bad_input(code, out, err, f"--record: {target} already exists; add --force to overwrite it")
    assert target.read_text(encoding="utf-8") == "keep me"


def test_record_force_overwrites_and_a_new_file_needs_no_force(capsys: pytest.CaptureFixture[str], db_path: Path,
                                                               tmp_path: Path) -> None:
    old = tmp_path / "old.csv"
    old.write_text("old contents\n", encoding="utf-8")
    code, _, err = run(capsys, "--db", str(db_path), "--fake-gpus", "1", "monitor", "--once", "--json",
                       "--record", str(old), "--force")
    assert code == 0, err
    assert "old contents" not in old.read_text(encoding="utf-8")
    new = tmp_path / "new.csv"
    code, _, err = run(capsys, "--db", str(db_path), "--fake-gpus", "1", "monitor", "--once", "--json",
                       "--record", str(new))
    assert code == 0, err
    assert new.read_text(encoding="utf-8").startswith("time,epoch_s,marker")


def test_recorder_open_never_follows_a_link(tmp_path: Path) -> None:
    from configurator.monitor.recorder import CsvRecorder

    target = tmp_path / "t.txt"
    target.write_text("keep", encoding="utf-8")
    link = tmp_path / "l.csv"
    link.symlink_to(target)
    for overwrite in (True, False):
        with pytest.raises(OSError):
            CsvRecorder(link, overwrite=overwrite)
    with pytest.raises(FileExistsError):
        CsvRecorder(target, overwrite=False)
    assert target.read_text(encoding="utf-8") == "keep"
    fifo = tmp_path / "f.csv"
    os.mkfifo(fifo)
    with pytest.raises(OSError):  # no reader: refused at once, never blocks
        CsvRecorder(fifo)


# -- export-pdf ------------------------------------------------------------------------------------------------
@pytest.mark.full_env  # Chinese output or a PDF: PySide6
def test_export_pdf_long_name_is_refused_and_the_longest_is_quick(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    long = write(tmp_path, {**GOOD, "name": "x" * 100_000}, name="long.json")
    proc = cli(db, "export-pdf", str(long), str(tmp_path / "long.pdf"))
    assert proc.returncode == 2 and proc.stderr.splitlines() == ["name: must be at most 200 characters, not 100,000"]
    assert not (tmp_path / "long.pdf").exists()
    longest = write(tmp_path, {**GOOD, "name": "x" * 200}, name="longest.json")
    start = time.monotonic()
    proc = cli(db, "export-pdf", str(longest), str(tmp_path / "ok.pdf"))
    assert proc.returncode == 0, proc.stderr
    assert time.monotonic() - start < 60 and (tmp_path / "ok.pdf").read_bytes().startswith(b"%PDF")


# -- property: no file makes check do anything but exit 0, 1 or 2 with a message, within 2 s ---------------------
_FOLDER = Path(tempfile.mkdtemp(prefix="坏输入-"))
_PATHS: list[tuple[str | int, ...]] = []


def _collect(value: Any, path: tuple[str | int, ...] = ()) -> None:
    _PATHS.append(path)
    if isinstance(value, dict):
        for k, v in value.items():
            _collect(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _collect(v, (*path, i))


_collect(GOOD)

odd_text = st.sampled_from(["", "\x00", "\ud800", "\u202e", "\u2066x", "\n", "名" * 201, "x" * 300, "nvidia-rtx-3090",
                            FORMAT, "custom", "NaN"]) | st.text(max_size=6)
numbers = (st.integers(-3, 70) | st.sampled_from([0, 16, 17, 32, 33, 65_536, 65_537, 10**8, 10**8 + 1, 2**63,
                                                   10**309, 10**4000])
           | st.floats(allow_nan=True, allow_infinity=True))
scalars = st.none() | st.booleans() | numbers | odd_text
json_values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=4)
                           | st.dictionaries(odd_text | st.sampled_from(["id", "qty", "parts", "name"]), kids,
                                             max_size=4), max_leaves=10)


def _replaced(doc: Any, path: tuple[str | int, ...], value: Any) -> Any:
    if not path:
        return value
    copy = json.loads(json.dumps(doc))
    where = copy
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    return copy


def _dump(value: Any) -> bytes:
    # json.dumps writes NaN/Infinity (Python's JSON accepts them, so may a file); 10**4000 has 4,001 digits.
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


raw_files = st.one_of(
    st.builds(lambda p, v: _dump(_replaced(GOOD, p, v)), st.sampled_from(_PATHS), json_values),  # wrong type anywhere
    st.builds(_dump, json_values),
    st.builds(lambda n, inner: b"[" * n + inner + b"]" * n, st.integers(0, 3000), st.sampled_from([b"", b"1", b"{}"])),
    st.builds(lambda n: b'{"format": "configurator.build/1", "parts": [], "budget_cny": ' + b"9" * n + b"}",
              st.integers(300, 6000)),
    st.binary(max_size=40),
    st.sampled_from([b"NaN", b"\xef\xbb\xbf{}", b'{"format": "configurator.build/1", "parts": [{"id": "\\u0000"}]}',
                     b'{"a": "\\ud800"}', b"{\"parts\": [" + b"{}," * 3000 + b"{}]}"]),
)


@pytest.fixture(scope="module")
def warm_check() -> None:
    """One check of a valid build first: the process's first check fits the throughput model and reads the
    catalogue (seconds on a busy machine), and the deadline below judges a check, not that start."""
    import contextlib
    import io

    path = _FOLDER / "warm.json"
    path.write_text(json.dumps({"format": "configurator.build/1", "name": "warm", "parts": [
        {"id": "nvidia-rtx-3090", "qty": 2}], "workload": {"model": "gpt2", "task": "train"}}))
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
            contextlib.suppress(SystemExit):
        main(["--db", str(_FOLDER / "c.db"), "check", str(path), "--json"])


@settings(max_examples=150, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(raw=raw_files)
def test_no_build_file_makes_check_do_anything_but_exit_0_1_or_2_with_a_message(warm_check: None, raw: bytes) -> None:
    import contextlib
    import io

    path = _FOLDER / "build.json"
    path.write_bytes(raw)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["--db", str(_FOLDER / "c.db"), "check", str(path), "--json"])
        except SystemExit as exc:
            code = int(exc.code or 0)
    assert code in (0, 1, 2)
    result = strict_json(out.getvalue())
    if code == 2:
        lines = err.getvalue().splitlines()
        assert result["ok"] is False and len(result["errors"]) == len(lines) >= 1
        assert all(line.strip() and len(line) < 600 for line in lines)
        for e in result["errors"]:
            assert not any(c in e["path"] + e["message"] for c in "\x00\u202e\u2066\ud800\n")
    else:
        assert result["ok"] is (code == 0) and "findings" in result


# -- Ctrl-C ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("when", ["before the fingerprint", "during the fingerprint"])
def test_ctrl_c_early_in_bench_exits_130(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                         when: str) -> None:
    """Ctrl-C before or while the fingerprint is taken: the suite never ran (its record says it could not)."""
    import signal

    from configurator.bench import runner as runner_module

    real_emit = runner_module.SubprocessRunner._emit

    def emit(self: Any, ev: Any) -> None:
        real_emit(self, ev)
        if ev.kind == "job_started" and ev.job == "fingerprint" and when == "during the fingerprint":
            signal.raise_signal(signal.SIGINT)  # the handler bench installs: cancel the running job

    real_run = runner_module.SubprocessRunner.run

    def run_after_ctrl_c(self: Any) -> Any:
        if when == "before the fingerprint":
            signal.raise_signal(signal.SIGINT)
        return real_run(self)

    monkeypatch.setattr(runner_module.SubprocessRunner, "_emit", emit)
    monkeypatch.setattr(runner_module.SubprocessRunner, "run", run_after_ctrl_c)
    code, _out, err = run(capsys, "bench", "--no-store", "--only", "matmul", "--device", "cpu", "--json")
    assert code == 130, err
    assert "Traceback" not in err


def test_ctrl_c_anywhere_else_exits_130(capsys: pytest.CaptureFixture[str], db_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from configurator.store import database

    def interrupted(*_args: Any, **_kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(database, "open_store", interrupted)
    code, _out, _err = run(capsys, "--db", str(db_path), "parts", "list")
    assert code == 130


@pytest.mark.parametrize("argv", [("--lang", "xx", "parts", "list"), ("parts", "list", "--lang", "xx"),
                                  ("--lang", "xx"), ("--lang", "", "presets")])
def test_an_unknown_language_is_refused(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *argv)  # ("--lang", "xx") alone is the GUI: refused before Qt starts
    assert_bad_input(code, out, err, f"--lang: must be one of en, zh_CN, not {argv[argv.index('--lang') + 1]!r}")


def test_a_csv_with_hundreds_of_bad_rows_is_named_in_bounded_form(
        capsys: pytest.CaptureFixture[str], seeded_db: Path, tmp_path: Path) -> None:
    """Every bad row is named, but on stderr only the first 100 problems and a count; --json has all (#35)."""
    path = tmp_path / "bad.csv"
    rows = "".join(f"custom-{i},gpu,GPU {i},not-a-price\n" for i in range(400))
    path.write_text("id,category,name,price_cny\n" + rows, encoding="utf-8")
    code, out, err = run(capsys, "--db", str(seeded_db), "--lang", "en", "parts", "import", str(path))
    lines = err.splitlines()
    assert code == 2 and out == "" and "Traceback" not in err
    assert len(lines) == 101 and lines[0].startswith(f"{path}:2: price_cny")
    assert lines[-1].startswith("… and ") and lines[-1].endswith(" more problems (--json lists them all)")
    more = int(lines[-1].split()[2].replace(",", ""))
    code, out, err = run(capsys, "--db", str(seeded_db), "--lang", "en", "parts", "import", str(path), "--json")
    errors = strict_json(out)["errors"]
    assert code == 2 and len(errors) == 100 + more and len(err.splitlines()) == 101
    assert {e["path"] for e in errors} >= {f"{path}:{n}" for n in range(2, 402)}  # every bad row named
