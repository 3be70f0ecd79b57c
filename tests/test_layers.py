"""The project's layers: engine below ui below the app, and no import cycle anywhere.

engine is pure Python (it runs in worker and engine processes, under the CLI, the local API and MCP), so
importing it must never load Qt or the window. ui is given what it needs of the app (noda_desktop's paths,
settings and About text, and the local API class) and imports nothing else of it. The import graph is read
from the source with ``ast``, imports inside functions included, so an import that only runs later counts too.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "ui", "noda_desktop")
UI_MAY_USE = {"noda_desktop", "noda_desktop.paths", "noda_desktop.settings", "noda_desktop.about"}


def project_modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports.

    ``import a.b`` / ``from a.b import c`` run the packages on the way (``a``), except those the importing
    module is itself inside (they are already running). ``from pkg import name`` of a name (not a submodule)
    needs ``pkg`` itself, even from inside ``pkg``: a submodule that takes a name from its own package's
    ``__init__`` while that ``__init__`` imports it is a start-up cycle.
    """
    modules = project_modules()

    def run(name: str, importer: str) -> set[str]:
        parts = name.split(".")
        found = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
        return {m for m in found if m in modules and not (importer == m or importer.startswith(m + "."))}

    graph = {}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    deps |= run(alias.name, module)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    if sub in modules:
                        deps |= run(sub, module)
                    else:
                        deps |= run(source, module)
                        if source in modules:
                            deps.add(source)
        deps.discard(module)
        graph[module] = deps
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for dep in graph[todo.pop()] - seen:
            seen.add(dep)
            todo.append(dep)
    return seen


def test_the_import_graph_is_read_from_the_source():
    graph = import_graph()
    assert "engine.read.parse" in graph["engine.read.formats.archive"] or \
        "engine.read.formats.archive" in graph["engine.read.parse"]
    assert "ui.main_window" in graph["noda_desktop.gui"]          # an import inside a function counts
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle_among_the_projects_modules():
    assert cycles(import_graph()) == []


def test_engine_imports_nothing_of_the_window_or_the_app():
    graph = import_graph()
    for module in (m for m in graph if m.split(".")[0] == "engine"):
        above = {dep for dep in graph[module] if dep.split(".")[0] != "engine"}
        assert not above, f"{module} imports {sorted(above)}"


def test_ui_takes_from_the_app_only_what_it_is_given():
    graph = import_graph()
    for module in (m for m in graph if m.split(".")[0] == "ui"):
        app = {dep for dep in graph[module] if dep.split(".")[0] == "noda_desktop"}
        assert app <= UI_MAY_USE, f"{module} imports {sorted(app - UI_MAY_USE)}"
    for module in UI_MAY_USE:
        assert not {dep for dep in reachable(graph, module) if dep.split(".")[0] == "ui"}


def test_importing_all_of_engine_loads_no_qt_window_or_app_module():
    script = (
        "import importlib, pkgutil, sys\n"
        "import engine\n"
        "names = [m.name for m in pkgutil.walk_packages(engine.__path__, 'engine.')]\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'ui', 'noda_desktop'))\n"
        "print(len(names), *loaded)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    count, *loaded = done.stdout.split()
    assert int(count) > 50            # every engine module was imported
    assert loaded == []
