"""Rules the code keeps, checked on its source (AST) rather than by review:

- no function or method in configurator/ is over MAX_LINES lines;
- no module uses another configurator module's private names (``from x import _y``, ``x._y``);
- every path the contributor docs name (docs/architecture.md, CONTRIBUTING.md) exists.

The allow-lists hold the offenders of the day the rule came in, each being fixed on its own branch. They may
only shrink: an entry that no longer offends fails too, so it is taken off when it is fixed.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "configurator"
MAX_LINES = 120

# path :: qualified name. May only shrink (see the module's docstring); empty: the rule holds everywhere.
LONG_ALLOWED: frozenset[str] = frozenset()

# path :: module.name of a private name used from another module. May only shrink; empty: none is.
PRIVATE_ALLOWED: frozenset[str] = frozenset()

DOCS = ("docs/architecture.md", "CONTRIBUTING.md")
# A backticked path in the docs: from the repository's root, or (core/, store/ …) from the package's.
DOC_PATH = re.compile(r"`((?:configurator|db|tests|benchmarks|docs|core|store|ui|cli|bench|monitor|host|schema)"
                      r"/[^`\s]*)`")


@functools.lru_cache(maxsize=4)
def _sources(package: Path) -> tuple[tuple[str, ast.Module], ...]:
    """Every module of ``package`` parsed (once per session: both checks read them)."""
    return tuple((path.relative_to(package.parent).as_posix(), ast.parse(path.read_text(encoding="utf-8"), str(path)))
                 for path in sorted(package.rglob("*.py")))


def _module_name(rel: str) -> str:
    name = rel.removesuffix(".py").replace("/", ".")
    return name.removesuffix(".__init__")


def _functions(node: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield f"{prefix}{child.name}", child
            yield from _functions(child, f"{prefix}{child.name}.")
        elif isinstance(child, ast.ClassDef):
            yield from _functions(child, f"{prefix}{child.name}.")
        else:
            yield from _functions(child, prefix)


def long_functions(package: Path = PACKAGE) -> dict[str, str]:
    """``path::qualname`` → ``path:line qualname (n lines)`` for every function over MAX_LINES lines."""
    found = {}
    for rel, tree in _sources(package):
        for name, fn in _functions(tree):
            lines = (fn.end_lineno or fn.lineno) - fn.lineno + 1  # decorators not counted, docstring counted
            if lines > MAX_LINES:
                found[f"{rel}::{name}"] = f"{rel}:{fn.lineno} {name} ({lines} lines)"
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_uses(package: Path = PACKAGE) -> dict[str, str]:
    """``path::module.name`` → ``path:line module.name`` for every use of another configurator module's
    private name: ``from module import _name`` (at any depth, relative imports resolved) and ``alias._name``
    where ``alias`` is a configurator module imported by that name."""
    sources = _sources(package)
    modules = {_module_name(rel) for rel, _tree in sources}
    found: dict[str, str] = {}
    for rel, tree in sources:
        me = _module_name(rel)
        package = me if rel.endswith("__init__.py") else me.rpartition(".")[0]
        aliases: dict[str, str] = {}  # local name → the configurator module it is
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join([*parts[:len(parts) - node.level + 1], *([base] if base else [])])
                if not base.startswith("configurator"):
                    continue
                for alias in node.names:
                    if f"{base}.{alias.name}" in modules:
                        aliases[alias.asname or alias.name] = f"{base}.{alias.name}"
                    if _private(alias.name) and base != me:
                        found.setdefault(f"{rel}::{base}.{alias.name}", f"{rel}:{node.lineno} {base}.{alias.name}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules:
                        aliases[alias.asname or alias.name] = alias.name
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or not _private(node.attr):
                continue
            owner = (aliases.get(node.value.id) if isinstance(node.value, ast.Name)
                     else ast.unparse(node.value) if isinstance(node.value, ast.Attribute) else None)
            if owner in modules and owner != me:
                found.setdefault(f"{rel}::{owner}.{node.attr}", f"{rel}:{node.lineno} {owner}.{node.attr}")
    return found


def _top_level_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def path_exists(named: str) -> bool:
    """Whether a path the docs name exists: from the repository's root or the package's; ``<group>`` and
    ``*`` match any name; ``module.NAME`` (``core/model_specs.KNOWN_MODELS``) is a module's top-level name."""
    pattern = re.sub(r"<[^>]+>", "*", named.rstrip(".,;:"))
    for base in (ROOT, PACKAGE):
        if any(base.glob(pattern.rstrip("/"))) if "*" in pattern else (base / pattern).exists():
            return True
        module, dot, attr = pattern.rpartition(".")
        if dot and "/" in module and (base / f"{module}.py").is_file():
            return attr in _top_level_names(base / f"{module}.py")
    return False


def stale_doc_paths() -> list[str]:
    stale = []
    for doc in DOCS:
        text = (ROOT / doc).read_text(encoding="utf-8")
        for match in DOC_PATH.finditer(text):
            if not path_exists(match.group(1)):
                stale.append(f"{doc}:{text.count(chr(10), 0, match.start()) + 1} `{match.group(1)}`")
    return stale


def test_no_function_is_over_120_lines() -> None:
    found = long_functions()
    new = sorted(v for k, v in found.items() if k not in LONG_ALLOWED)
    fixed = sorted(LONG_ALLOWED - found.keys())
    assert not new, f"over {MAX_LINES} lines (split by what each part does):\n" + "\n".join(new)
    assert not fixed, "no longer over the limit: take off LONG_ALLOWED:\n" + "\n".join(fixed)


def test_no_module_uses_another_modules_private_names() -> None:
    found = private_uses()
    new = sorted(v for k, v in found.items() if k not in PRIVATE_ALLOWED)
    fixed = sorted(PRIVATE_ALLOWED - found.keys())
    assert not new, ("another module's private name (make it public where it is used as public, or move the "
                     "code):\n" + "\n".join(new))
    assert not fixed, "no longer used: take off PRIVATE_ALLOWED:\n" + "\n".join(fixed)


def test_every_path_the_docs_name_exists() -> None:
    stale = stale_doc_paths()
    assert not stale, "the docs name paths that do not exist:\n" + "\n".join(stale)


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """The checks on a made-up package, so that a check that finds nothing is not taken for a pass."""
    pkg = tmp_path / "configurator"
    (pkg / "sub").mkdir(parents=True)
    for init in (pkg / "__init__.py", pkg / "sub" / "__init__.py"):
        init.write_text("", encoding="utf-8")
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_LINES - 1))
    (pkg / "sub" / "a.py").write_text(
        "_HIDDEN = 1\n__all__ = ['f']\n"
        f"def fits():\n{body}\n"  # MAX_LINES lines: allowed
        f"class K:\n    def too_long(self):\n    {body.replace(chr(10), chr(10) + '    ')}    return 1\n"
        "def own():\n    return _HIDDEN\n", encoding="utf-8")
    (pkg / "b.py").write_text(
        "from configurator.sub.a import _HIDDEN, __all__\n"
        "from configurator.sub import a as alias\n"
        "import configurator.sub.a\n"
        "def g():\n    from .sub.a import _late\n"
        "    return alias._attr, configurator.sub.a._dotted, alias.__name__, alias.public\n", encoding="utf-8")
    assert set(long_functions(pkg)) == {"configurator/sub/a.py::K.too_long"}
    assert long_functions(pkg)["configurator/sub/a.py::K.too_long"].startswith("configurator/sub/a.py:")
    assert set(private_uses(pkg)) == {"configurator/b.py::configurator.sub.a._HIDDEN",
                                      "configurator/b.py::configurator.sub.a._late",
                                      "configurator/b.py::configurator.sub.a._attr",
                                      "configurator/b.py::configurator.sub.a._dotted"}
    assert path_exists("configurator/core/engine/report.py") and path_exists("core/engine/report.py")
    assert path_exists("configurator/cli/<group>.py") and path_exists("tests/test_cli*.py")
    assert path_exists("core/model_specs.KNOWN_MODELS") and not path_exists("core/model_specs.NO_SUCH_NAME")
    assert not path_exists("configurator/core/no_such_module.py") and not path_exists("docs/nothing/")
