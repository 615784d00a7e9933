"""The files the app writes: never through a symbolic link (one line, exit 2, the link's target unchanged),
atomically (a temporary file in the same folder, then one rename), with the mode the umask gives."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from configurator.files import SymlinkError, atomic_writer, write_atomic
from tests.cli_run import run

BUILD = {"format": "configurator.build/1", "name": "One 3090", "parts": [{"id": "nvidia-rtx-3090"}]}


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    path = tmp_path / "victim.txt"
    path.write_text("keep me", encoding="utf-8")
    return path


def _links(tmp_path: Path, victim: Path, suffix: str) -> list[Path]:
    link = tmp_path / f"链接{suffix}"
    link.symlink_to(victim)
    dangling = tmp_path / f"dangling{suffix}"
    dangling.symlink_to(tmp_path / f"elsewhere{suffix}")
    return [link, dangling]


def _refused(code: int, err: str, link: Path, path: str | None = None) -> None:
    assert code == 2, err
    assert err.splitlines() == [f"{path or link}: {link} is a symbolic link; give the file itself"]


def _untouched(tmp_path: Path, victim: Path, suffix: str) -> None:
    assert victim.read_text(encoding="utf-8") == "keep me"
    assert not (tmp_path / f"elsewhere{suffix}").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_export_pdf_refuses_a_link(capsys: pytest.CaptureFixture[str], db_path: Path, tmp_path: Path,
                                   victim: Path) -> None:
    build = tmp_path / "build.json"
    build.write_text(json.dumps(BUILD), encoding="utf-8")
    for link in _links(tmp_path, victim, ".pdf"):
        code, _out, err = run(capsys, "--db", str(db_path), "export-pdf", str(build), str(link))
        _refused(code, err, link)
        assert link.is_symlink()
    _untouched(tmp_path, victim, ".pdf")


def test_parts_export_refuses_a_link(capsys: pytest.CaptureFixture[str], db_path: Path, tmp_path: Path,
                                     victim: Path) -> None:
    for link in _links(tmp_path, victim, ".csv"):
        code, _out, err = run(capsys, "--db", str(db_path), "parts", "export", str(link), "--category", "psu")
        _refused(code, err, link)
    _untouched(tmp_path, victim, ".csv")


def test_bench_out_refuses_a_link_before_running(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 victim: Path) -> None:
    for link in _links(tmp_path, victim, ".json"):
        code, _out, err = run(capsys, "bench", "--no-store", "--only", "matmul", "--out", str(link))
        _refused(code, err, link, "--out")
    _untouched(tmp_path, victim, ".json")


@pytest.mark.full_env  # Chinese output or a PDF: PySide6
def test_the_pdf_writer_refuses_a_link(qapp: object, tmp_path: Path, victim: Path) -> None:
    """report --pdf and export-pdf share it; the report's checks come after reading the recording."""
    from configurator.ui.pdf import write_html_pdf

    for link in _links(tmp_path, victim, ".pdf"):
        with pytest.raises(SymlinkError):
            write_html_pdf("<h1>Report</h1>", link, "Report")
    _untouched(tmp_path, victim, ".pdf")
    ok = tmp_path / "ok.pdf"
    write_html_pdf("<h1>Report</h1>", ok, "Report")
    assert ok.read_bytes().startswith(b"%PDF")


def test_atomic_writer_refuses_links_and_leaves_nothing_when_it_fails(tmp_path: Path, victim: Path) -> None:
    for link in _links(tmp_path, victim, ".txt"):
        with pytest.raises(SymlinkError):
            write_atomic(link, "new")
        with pytest.raises(SymlinkError):
            write_atomic(link, b"new")
    target = tmp_path / "target.txt"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_writer(target) as f:
        f.write("half")
        raise RuntimeError("a failure half-way")
    assert target.read_text(encoding="utf-8") == "old"
    _untouched(tmp_path, victim, ".txt")
    with pytest.raises(IsADirectoryError):
        write_atomic(tmp_path, "x")


def test_atomic_writer_replaces_a_link_made_while_writing(tmp_path: Path, victim: Path) -> None:
    target = tmp_path / "out.txt"
    with pytest.raises(SymlinkError), atomic_writer(target) as f:
        f.write("new")
        target.symlink_to(victim)  # another program, between the check and the rename
    assert victim.read_text(encoding="utf-8") == "keep me" and target.is_symlink()


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_a_new_file_gets_the_mode_the_umask_gives(tmp_path: Path, umask: int) -> None:
    old = os.umask(umask)
    try:
        path = write_atomic(tmp_path / f"f{umask:o}.txt", "x")
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


# -- the database path ---------------------------------------------------------------------------------------
EMPTY = "is empty; give the database file's name, or leave it out for the default"


@pytest.mark.parametrize("argv", [("parts", "list"), ("parts", "list", "--json"), ("bench", "interpreters"), ()])
def test_an_empty_database_path_is_refused(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                           argv: tuple[str, ...]) -> None:
    code, out, err = run(capsys, "--db", "", *argv)  # () is the GUI: refused before Qt starts
    assert code == 2 and err.splitlines() == [f"--db: {EMPTY}"], err
    if "--json" in argv:
        assert json.loads(out)["errors"] == [{"path": "--db", "message": EMPTY}]
    monkeypatch.setenv("CONFIGURATOR_DB", "")
    code, out, err = run(capsys, *argv)
    assert code == 2 and err.splitlines() == [f"CONFIGURATOR_DB: {EMPTY}"], err


def test_the_environment_variable_names_a_database_too(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "env.db"
    monkeypatch.setenv("CONFIGURATOR_DB", str(db))
    code, _out, err = run(capsys, "parts", "show", "nvidia-rtx-3090", "--json")
    assert code == 0 and db.is_file(), err


@pytest.mark.parametrize("how", ["--db", "CONFIGURATOR_DB"])
@pytest.mark.parametrize("content", [b'{"format": "configurator.build/1", "name": "mine"}\n', b"\x00" * 200])
def test_a_named_file_that_is_not_a_database_is_left_exactly_as_it_is(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str,
        content: bytes) -> None:
    mine = tmp_path / "mybuild.json"
    mine.write_bytes(content)
    argv: tuple[str, ...] = ("--db", str(mine)) if how == "--db" else ()
    if how == "CONFIGURATOR_DB":
        monkeypatch.setenv("CONFIGURATOR_DB", str(mine))
    for command in (("parts", "list"), ("parts", "import", str(tmp_path / "none.csv"))):
        code, _out, err = run(capsys, *argv, *command)
        assert code == 2 and len(err.splitlines()) == 1 and "not a configurator database" in err, err
    assert mine.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mybuild.json"]  # nothing set aside or made beside it


def test_only_the_default_location_is_the_apps_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from configurator.paths import db_location

    monkeypatch.delenv("CONFIGURATOR_DB", raising=False)
    assert db_location(None)[1] is True
    assert db_location(str(tmp_path / "a.db")) == (tmp_path / "a.db", False)
    monkeypatch.setenv("CONFIGURATOR_DB", str(tmp_path / "b.db"))
    assert db_location(None) == (tmp_path / "b.db", False)
