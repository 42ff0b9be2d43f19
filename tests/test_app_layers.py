"""The project's apps depend one way: no import cycle between apps.

An app built on another (penalties on tournaments, documents on both, event_io on all) imports it;
the one below never imports the one above. It learns of their work through what they register or
receive instead (``tournaments.hooks``, ``tournaments.signals``). A cycle would let a change in one
app break the other from both sides; this test names it with the import lines on it. Every import
counts, those inside functions too.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from django.apps import apps

from tests.source import parse

REPO = Path(__file__).resolve().parents[1]


def _project_apps() -> list[str]:
    """The installed apps whose code lives in this repository, plus ``config``."""
    names = [c.name for c in apps.get_app_configs() if Path(c.path).resolve().parent == REPO]
    return sorted({*names, "config"})


def import_graph(root: Path, app_names: list[str]) -> dict[str, dict[str, list[str]]]:
    """app → {imported app: ["path:line module", ...]} for every import between two of the apps."""
    graph: dict[str, dict[str, list[str]]] = {app: defaultdict(list) for app in app_names}
    for app in app_names:
        for path in sorted((root / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(parse(path)):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    modules = [node.module]
                elif isinstance(node, ast.Import):
                    modules = [alias.name for alias in node.names]
                else:
                    continue
                for module in modules:
                    target = module.split(".")[0]
                    if target in graph and target != app:
                        graph[app][target].append(f"{path.relative_to(root)}:{node.lineno} {module}")
    return graph


def cycles(graph: dict[str, dict[str, list[str]]]) -> list[list[str]]:
    """Each strongly connected group of two or more apps (Tarjan), sorted: the import cycles."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(app: str) -> None:
        index[app] = low[app] = len(index)
        stack.append(app)
        for other in graph[app]:
            if other not in index:
                visit(other)
                low[app] = min(low[app], low[other])
            elif other in stack:
                low[app] = min(low[app], index[other])
        if low[app] == index[app]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == app:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for app in sorted(graph):
        if app not in index:
            visit(app)
    return sorted(found)


def test_the_apps_import_each_other_one_way_only() -> None:
    graph = import_graph(REPO, _project_apps())
    found = cycles(graph)
    evidence = {f"{a} -> {b}": graph[a][b] for group in found for a in group for b in group if b in graph[a]}
    assert found == [], evidence


def test_tournaments_imports_none_of_the_apps_built_on_it() -> None:
    """tournaments (events, rounds, results) is the base: standings get penalties' match-point
    adjustments through tournaments.hooks, documents are queued on tournaments.signals."""
    graph = import_graph(REPO, _project_apps())
    above = {"penalties", "decklists", "documents", "clock", "event_io"}
    assert {app: graph["tournaments"][app] for app in above if app in graph["tournaments"]} == {}


def test_the_check_finds_a_cycle(tmp_path: Path) -> None:
    for app, body in {
        "low": "def f():\n    from high.models import X\n",
        "high": "import low.services\n",
        "top": "from high import y\n",
    }.items():
        (tmp_path / app).mkdir()
        (tmp_path / app / "services.py").write_text(body)
    graph = import_graph(tmp_path, ["low", "high", "top"])
    assert cycles(graph) == [["high", "low"]]
    assert graph["low"]["high"] == ["low/services.py:2 high.models"]
