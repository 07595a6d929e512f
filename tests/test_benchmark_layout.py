"""The scripts' folders import one way (benchmarks/README.md, "Layout of this folder").

``benchmarks/shared/`` is the base every script imports; ``training/`` (the trainers of
the shipped models) imports only it; the measurement scripts of ``benchmarks/`` import it
and ``training/``; ``experiments/`` imports any of them; nothing imports ``experiments/``.
Read from the sources with ``ast`` (nothing is imported, no evaluation data needed),
lazy imports inside functions included.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("benchmarks", "training", "experiments")
#: the layer of each part: a module may import its own layer and those below it
LAYERS = {"shared": 0, "training": 1, "benchmarks": 2, "experiments": 3}
BOOTSTRAP = "sys.path[0] = str(Path(__file__).resolve().parents[1])"


def module_name(path: Path) -> str:
    """``benchmarks/shared/folds.py`` → ``benchmarks.shared.folds`` (``__init__`` → the package)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def part_of(name: str) -> str:
    """Which part of the layout a dotted module name belongs to."""
    return "shared" if name == "benchmarks.shared" or name.startswith("benchmarks.shared.") else name.split(".")[0]


def sources() -> dict[str, Path]:
    """Every Python module of the three folders, by dotted name."""
    return {module_name(p): p for folder in FOLDERS for p in sorted((ROOT / folder).rglob("*.py"))
            if "__pycache__" not in p.parts}


def imports(path: Path, name: str, known: set[str]) -> list[tuple[int, str]]:
    """(line, module) of every import of a module of the three folders, relative ones resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # ``from training import train_region`` imports the module training.train_region
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        out += [(node.lineno, t) for t in targets if t.split(".")[0] in FOLDERS]
    return out


def import_graph() -> dict[str, set[str]]:
    """Module → the modules of the three folders it imports (a package's import counts as one)."""
    mods = sources()
    known = set(mods)
    return {name: {t for _, t in imports(path, name, known) if t != name} for name, path in mods.items()}


def test_each_folder_imports_only_its_own_layer_and_those_below():
    mods = sources()
    known = set(mods)
    wrong = []
    for name, path in mods.items():
        for line, target in imports(path, name, known):
            if LAYERS[part_of(target)] > LAYERS[part_of(name)]:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert not wrong, "imports against the direction shared <- training <- benchmarks <- experiments:\n" + "\n".join(wrong)


def test_no_script_imports_a_sibling_by_its_bare_name():
    """Bare names (``from cv import ...``) would make the folders one flat namespace again."""
    bare = {path.stem for path in sources().values()} | {"_common", "folds", "shared"}
    found = []
    for name, path in sources().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and not node.level else [])
            found += [f"{path.relative_to(ROOT)}:{node.lineno} {n}" for n in names if n and n.split(".")[0] in bare
                      and n.split(".")[0] not in FOLDERS and n.split(".")[0] not in sys.stdlib_module_names]
    assert not found, "\n".join(found)


def test_no_import_circle_among_the_scripts():
    graph = import_graph()
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path + [node, nxt]
            if nxt in graph and not state.get(nxt):
                found = visit(nxt, path + [node])
                if found:
                    return found
        state[node] = 2
        return None

    for start in sorted(graph):
        if not state.get(start):
            circle = visit(start, [])
            assert circle is None, "import circle: " + " -> ".join(circle[circle.index(circle[-1]):])


def test_nothing_outside_experiments_imports_them_and_shared_imports_no_script():
    graph = import_graph()
    for name, targets in graph.items():
        if part_of(name) != "experiments":
            assert not any(part_of(t) == "experiments" for t in targets), name
        if part_of(name) == "shared":
            assert all(part_of(t) == "shared" for t in targets), name


@pytest.mark.parametrize("name", [n for n, p in sources().items() if part_of(n) != "shared"
                                  and p.name != "__init__.py"])
def test_a_script_that_imports_the_folders_can_run_as_a_file(name):
    """Run as ``python training/x.py``, a script finds ``benchmarks.shared`` and ``training``
    through the bootstrap that puts the checkout's root first on sys.path."""
    path = sources()[name]
    module_level = [t for n in ast.parse(path.read_text(encoding="utf-8")).body
                    if isinstance(n, ast.ImportFrom) and n.module for t in [n.module] if t.split(".")[0] in FOLDERS]
    if module_level:
        assert BOOTSTRAP in path.read_text(encoding="utf-8"), f"{path.relative_to(ROOT)} lacks the bootstrap"


def test_rebuild_runs_as_a_file_from_any_folder(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "training" / "rebuild.py"), "--help"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "region, sections, pagechoice, crf" in proc.stdout
