"""Print the requirements of the headless test step (`make test-headless`): the project's dependencies
without Qt (PySide6, pyqtgraph), plus pytest, pytest-xdist and hypothesis, read from pyproject.toml."""

from __future__ import annotations

import tomllib
from pathlib import Path

QT = ("pyside6", "pyqtgraph")
TEST_TOOLS = ("pytest", "pytest-xdist", "hypothesis")


def main() -> None:
    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text("utf-8"))["project"]
    reqs = [r for r in project["dependencies"] if not r.lower().startswith(QT)]
    for r in project["optional-dependencies"]["dev"]:
        name = r.split(">")[0].split("=")[0].split("<")[0].strip().lower()
        if name in TEST_TOOLS:
            reqs.append(r)
    print("\n".join(reqs))


if __name__ == "__main__":
    main()
