"""The modules of the apps import each other one way, and no function grows past a screen or two.

``test_app_layers`` keeps the apps in layers; this is the same check one level down, between the
modules of the apps (``tournaments.pages.common``, ``documents.tasks`` ...): a cycle between two
modules means neither can be read, changed or tested without the other, and hides behind an import
inside a function, so those count. Imports under ``if TYPE_CHECKING:`` do not (they never run).
Migrations and tests are left out. A function over ``MAX_FUNCTION_LINES`` lines is named too: it does
more than one thing, and its parts want names of their own (issue 26).
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.source import parse
from tests.test_app_layers import _project_apps

REPO = Path(__file__).resolve().parents[1]
MAX_FUNCTION_LINES = 100


def app_modules(root: Path, app_names: list[str]) -> dict[str, Path]:
    """Dotted module name → file, for every module of the apps (packages by their ``__init__``)."""
    modules = {}
    for app in app_names:
        for path in sorted((root / app).rglob("*.py")):
            if {"migrations", "tests"} & set(path.relative_to(root).parts):
                continue
            parts = path.relative_to(root).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the nodes under an ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            skipped |= {id(inner) for stmt in node.body for inner in ast.walk(stmt)}
    return skipped


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """The dotted names an import statement reaches for: ``from a import b`` may name module ``a.b``."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.split(".") if is_package else module.split(".")[:-1]
        package = package[: len(package) - node.level + 1]
        base = ".".join([*package, *([node.module] if node.module else [])])
    return [f"{base}.{alias.name}" for alias in node.names]


def _owner(name: str, modules: dict[str, Path]) -> str | None:
    """The app module ``name`` is, or lives in (``a.b.c`` → ``a.b`` when ``c`` is a name in it)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(root: Path, app_names: list[str]) -> dict[str, dict[str, list[str]]]:
    """module → {imported module: ["path:line", ...]} for every import between two app modules."""
    modules = app_modules(root, app_names)
    graph: dict[str, dict[str, list[str]]] = {module: {} for module in modules}
    for module, path in modules.items():
        tree = parse(path)
        skipped = _type_checking_only(tree)
        for node in ast.walk(tree):
            if id(node) in skipped or not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for name in _imported(node, module, path.name == "__init__.py"):
                target = _owner(name, modules)
                where = f"{path.relative_to(root)}:{node.lineno}"
                if target is not None and target != module and where not in graph[module].get(target, []):
                    graph[module].setdefault(target, []).append(where)
    return graph


def cycles(graph: dict[str, dict[str, list[str]]]) -> list[list[str]]:
    """Each strongly connected group of two or more modules (Tarjan, without recursion), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return sorted(found)


def long_functions(root: Path, app_names: list[str], limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """Each function (or method) of the app code longer than ``limit`` lines, as "module.name (lines)"."""
    found = []
    for module, path in app_modules(root, app_names).items():
        for node in ast.walk(parse(path)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    found.append(f"{module}.{node.name} ({lines} lines)")
    return sorted(found)


def test_no_two_app_modules_import_each_other() -> None:
    graph = import_graph(REPO, _project_apps())
    found = cycles(graph)
    evidence = {f"{a} -> {b}": graph[a][b] for group in found for a in group for b in group if b in graph[a]}
    assert found == [], evidence


#: The page modules of what pages share (``tournaments/pages/__init__.py``); the others are one per audience.
SHARED_PAGE_MODULES = {
    f"tournaments.pages.{name}"
    for name in ("common", "me_page", "manage_page", "result_block", "staff_results")
}


def test_the_page_modules_share_only_the_shared_modules() -> None:
    """A page module reads what pages share from ``SHARED_PAGE_MODULES``, never from another
    audience's module (pretalx's ``orga/views/``): each audience's pages change on their own."""
    graph = import_graph(REPO, _project_apps())
    pages = [module for module in graph if module.startswith("tournaments.pages.")]
    borrowed = {
        f"{module} -> {target}": lines
        for module in pages
        for target, lines in graph[module].items()
        if target.startswith("tournaments.pages") and target not in SHARED_PAGE_MODULES
    }
    assert SHARED_PAGE_MODULES <= set(pages)
    assert len(pages) > 5
    assert borrowed == {}


def test_no_function_of_the_app_code_is_over_100_lines() -> None:
    assert long_functions(REPO, _project_apps()) == []


def _write(root: Path, files: dict[str, str]) -> None:
    for name, body in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body)


def test_the_check_finds_a_cycle_through_a_function_level_import(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/pages/__init__.py": "",
            "app/pages/a.py": "from app.pages.b import f\n",
            "app/pages/b.py": "def f():\n    from .a import g\n",
            "app/pages/c.py": "from app.pages import a\n",
        },
    )
    graph = import_graph(tmp_path, ["app"])
    assert cycles(graph) == [["app.pages.a", "app.pages.b"]]
    assert graph["app.pages.b"]["app.pages.a"] == ["app/pages/b.py:2"]
    assert graph["app.pages.c"] == {"app.pages.a": ["app/pages/c.py:1"]}


def test_imports_for_type_checking_only_and_migrations_do_not_count(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/models.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from app.services import x\n",
            "app/services.py": "from app import models\n",
            "app/migrations/0001_initial.py": "from app import services\n",
        },
    )
    graph = import_graph(tmp_path, ["app"])
    assert cycles(graph) == []
    assert "app.migrations.0001_initial" not in graph


def test_the_check_names_a_long_function(tmp_path: Path) -> None:
    body = "def long():\n" + "    x = 1\n" * 100 + "\n\ndef short():\n    return 1\n"
    _write(tmp_path, {"app/__init__.py": "", "app/services.py": body})
    assert long_functions(tmp_path, ["app"]) == ["app.services.long (101 lines)"]
