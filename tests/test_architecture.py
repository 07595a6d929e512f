"""The package's import graph agrees with ARCHITECTURE.md: layers, no circles, no
private names taken from another module, modules small enough to read.

Imports are read from the source (``ast``), function-level imports included: a
lazy import is still a dependency.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "newsstemmer"

#: Each part of the package and the parts it may import (besides itself).  A part is a
#: sub-package or a top-level module; ARCHITECTURE.md shows the same table.
BASE = {"errors", "dom", "page", "article", "blocks", "blockwalk", "leftout", "formats", "evaluation", "trees",
        "shipped", "metadata"}
METHODS = {"layout", "single", "templates"}
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "dom": {"errors"},
    "page": {"errors", "dom"},
    "article": {"errors", "blocks", "formats"},
    "blocks": {"errors"},
    "blockwalk": {"errors", "dom", "blocks", "leftout"},
    "leftout": {"errors", "dom"},
    "formats": {"errors", "blocks"},
    "evaluation": {"errors"},
    "trees": {"errors"},
    "shipped": {"errors", "trees"},
    "metadata": {"errors", "dom", "trees", "shipped"},
    "pagetype": {"errors", "dom", "page", "trees", "shipped", "metadata"},
    "layout": {"errors", "dom", "page", "article", "blocks", "blockwalk", "leftout"},
    "single": {"errors", "dom", "page", "article", "blocks", "blockwalk", "leftout", "trees", "shipped"},
    "templates": {"errors", "dom", "page", "article", "blocks"},
    "rules": {"errors", "dom", "page", "article", "blocks", "layout"},
    "combine": BASE | METHODS | {"rules", "pagetype"},
    "io": BASE | {"layout"},
    "report": BASE | METHODS | {"combine", "pagetype"},
    "cli": BASE | METHODS | {"rules", "combine", "pagetype", "io", "report", "__init__"},
    "crawl": BASE | METHODS | {"rules", "combine", "pagetype", "report", "demo", "__init__"},
    "demo": {"errors", "dom", "evaluation"},
    "__init__": BASE | METHODS | {"rules", "combine", "pagetype"},
    "__main__": {"cli"},
}
#: Lazy imports upward that the layers allow, each inside a function body only (module ->
#: module it imports): ``SitePatterns.extract`` runs the extraction chain above the
#: layout engine.  They are left out of the circle test too (imported when called).
LAZY_UPWARD = {("newsstemmer.layout.patterns", "newsstemmer.combine.extract")}
#: Parts inside a layer that must not import each other (importer prefix -> forbidden
#: prefixes): the region extractor shares page signals with the CRF through
#: ``single/signals``, never through ``single/crf``.
FORBIDDEN_WITHIN = {
    "newsstemmer.single.region": ("newsstemmer.single.crf",),
    "newsstemmer.single.signals": ("newsstemmer.single.crf", "newsstemmer.single.region"),
    "newsstemmer.single.pagerank": ("newsstemmer.single.crf", "newsstemmer.single.region"),
    "newsstemmer.single.domgraph": ("newsstemmer.single.crf", "newsstemmer.single.region"),
}
#: Packages that are gone: nothing may import them again.
REMOVED = ("newsstemmer.decision", "newsstemmer.chain", "newsstemmer.grouping", "newsstemmer.training")
#: Line budget of one module (≈ one sitting); the demo's text corpus is data, not code.
MAX_LINES = 650
LONG_ALLOWED = {"demo/text.py"}


def _modules() -> dict[str, Path]:
    return {
        ".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__"): p
        for p in PACKAGE.rglob("*.py")
    }


def _part(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _function_lines(tree: ast.AST) -> set[int]:
    """The lines of every import statement inside a function body."""
    return {
        node.lineno
        for fn in ast.walk(tree)
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
        for node in ast.walk(fn)
        if isinstance(node, (ast.Import, ast.ImportFrom))
    }


@functools.lru_cache(maxsize=None)
def _parsed(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once for all the tests here."""
    return ast.parse(path.read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=None)
def _imports_of(module: str, path: Path) -> tuple[tuple[str, tuple[str, ...], int], ...]:
    return tuple((target, tuple(names), line) for target, names, line in _imports(module, path))


def _lazy_upward(module: str, target: str, path: Path, line: int) -> bool:
    """Whether this import is one of :data:`LAZY_UPWARD`, made inside a function."""
    return (module, target) in LAZY_UPWARD and line in _function_lines(_parsed(path))


def _imports(module: str, path: Path) -> list[tuple[str, list[str], int]]:
    """(imported module, names taken from it, line) for every import in ``path``."""
    tree = _parsed(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [a.name for a in node.names]
            if node.module is None or target in _MODULES:
                # "from . import x": x may be a module of the package
                subs = [f"{target}.{n}" for n in names if f"{target}.{n}" in _MODULES]
                for s in subs:
                    out.append((s, [], node.lineno))
                names = [n for n in names if f"{target}.{n}" not in _MODULES]
            if names or target not in {s.rpartition(".")[0] for s, _, _ in out}:
                out.append((target, names, node.lineno))
        elif isinstance(node, ast.Import):
            out.extend((a.name, [], node.lineno) for a in node.names)
    return [(t, n, line) for t, n, line in out if t == "newsstemmer" or t.startswith("newsstemmer.")]


_MODULES = _modules()


def test_layers_import_only_what_architecture_allows() -> None:
    wrong = []
    for module, path in sorted(_MODULES.items()):
        mine = _part(module)
        for target, _, line in _imports_of(module, path):
            theirs = _part(target)
            if theirs != mine and theirs not in ALLOWED.get(mine, set()) and not _lazy_upward(module, target, path, line):
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {mine} imports {target}")
    assert not wrong, "imports across layers that ARCHITECTURE.md forbids:\n" + "\n".join(wrong)


def test_parts_of_a_layer_keep_apart_and_removed_packages_stay_gone() -> None:
    wrong = []
    for module, path in sorted(_MODULES.items()):
        for target, _, line in _imports_of(module, path):
            where = f"{path.relative_to(PACKAGE.parent)}:{line}: {module} imports {target}"
            if target.startswith(REMOVED):
                wrong.append(f"{where} (removed)")
            for mine, theirs in FORBIDDEN_WITHIN.items():
                if (module == mine or module.startswith(mine + ".")) and target.startswith(theirs):
                    wrong.append(where)
    assert not [m for m in _MODULES if m.startswith(REMOVED)], "a removed package is back"
    assert not wrong, "imports that ARCHITECTURE.md forbids within a layer:\n" + "\n".join(wrong)


def test_the_architecture_test_sees_a_forbidden_import(tmp_path: Path) -> None:
    """The rules above catch what they are for (a lazy import of the CRF from the region
    extractor, at module level or inside a function)."""
    src = tmp_path / "candidates.py"
    src.write_text("def f():\n    from ..crf import segment\n", encoding="utf-8")
    found = _imports("newsstemmer.single.region.candidates", src)
    assert found and found[0][0].startswith(FORBIDDEN_WITHIN["newsstemmer.single.region"])


def test_no_import_circles() -> None:
    graph: dict[str, set[str]] = {m: set() for m in _MODULES}
    for module, path in _MODULES.items():
        for target, _, line in _imports_of(module, path):
            if _lazy_upward(module, target, path, line):
                continue
            while target not in _MODULES and "." in target:
                target = target.rpartition(".")[0]
            if target in _MODULES and target != module:
                graph[module].add(target)
    state: dict[str, int] = {}
    circles: list[str] = []

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append(" -> ".join(trail[trail.index(nxt):] + [node, nxt]) if nxt in trail else f"{node} -> {nxt}")
            elif nxt not in state:
                visit(nxt, trail + [node])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [])
    assert not circles, "import circles:\n" + "\n".join(circles)


def test_no_private_name_is_imported_from_another_module() -> None:
    taken = []
    for module, path in sorted(_MODULES.items()):
        for target, names, line in _imports_of(module, path):
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            if private and target != module:
                taken.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {', '.join(private)} from {target}")
    assert not taken, "private names imported across modules:\n" + "\n".join(taken)


@pytest.mark.parametrize("module", sorted(_MODULES))
def test_modules_are_small_enough_to_read(module: str) -> None:
    path = _MODULES[module]
    rel = str(path.relative_to(PACKAGE))
    if rel in LONG_ALLOWED:
        pytest.skip("data module")
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{rel} has {lines} lines (budget {MAX_LINES})"


def test_core_imports_no_scrapy() -> None:
    for module, path in _MODULES.items():
        if _part(module) in ("crawl",):
            continue
        tree = _parsed(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("scrapy", "twisted"):
                if _part(module) != "demo":
                    pytest.fail(f"{module} imports {node.module}")
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] in ("scrapy", "twisted") and _part(module) != "demo":
                        pytest.fail(f"{module} imports {a.name}")


def test_every_part_has_a_row() -> None:
    """A new sub-package or top-level module needs its row in ALLOWED (and ARCHITECTURE.md)."""
    missing = sorted({_part(m) for m in _modules()} - set(ALLOWED))
    assert not missing, f"parts without a row in ALLOWED: {missing}"
