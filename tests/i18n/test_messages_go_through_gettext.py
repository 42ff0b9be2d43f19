"""What people read from the pages and the API in their language never starts as a bare literal.

A refusal, a confirmation or an error message written as a plain string or f-string shows up in
English under a Spanish or Japanese page (issue #18). This reads every app module (not the pure
domain packages, which mark their messages with ``N_`` and are translated at the adapter, nor
migrations and management commands, which speak to the operator's terminal) and fails on a call
that hands such a literal to something a reader sees: a page message (``messages.success`` ...),
a refusal (``PermissionDenied``, ``DomainError``, ``ConflictError``, ``Http404``) or the floor's
and the clock's page helpers.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = (
    "accounts",
    "clock",
    "common",
    "decklists",
    "documents",
    "event_io",
    "floor",
    "penalties",
    "tournaments",
)
#: Callables whose argument at this position is read by a person.
READ_ARGUMENT = {
    "PermissionDenied": 0,
    "DomainError": 0,
    "ConflictError": 0,
    "Http404": 0,
    "require_allowed": 1,  # floor.views
    "run_action": 2,  # floor.views: the success message
    "_run": 2,  # clock.views: the success message
}
PAGE_MESSAGES = {"debug", "info", "success", "warning", "error"}


def is_literal(node: ast.expr) -> bool:
    """A string written in the code, or one glued to other text with ``+``."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and bool(node.value.strip())
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return is_literal(node.left) or is_literal(node.right)
    return False


def read_argument(call: ast.Call) -> int | None:
    func = call.func
    if isinstance(func, ast.Name):
        return READ_ARGUMENT.get(func.id)
    if isinstance(func, ast.Attribute):
        if func.attr in PAGE_MESSAGES and isinstance(func.value, ast.Name) and func.value.id == "messages":
            return 1
        return READ_ARGUMENT.get(func.attr)
    return None


def untranslated_calls(source: str) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            index = read_argument(node)
            if index is not None and len(node.args) > index and is_literal(node.args[index]):
                lines.append(node.lineno)
    return lines


def test_the_check_catches_a_bare_message():
    caught = untranslated_calls(
        'messages.success(request, f"Table {n} saved.")\n'
        'raise PermissionDenied("Only judges.")\n'
        'run_action(request, act, _("Saved.") + ".")\n'
        'require_allowed(ok, _("Only judges."))\n'
        'raise DomainError(_("Impossible result: %(p)s") % {"p": p})\n'
    )
    assert caught == [1, 2, 3]


def test_no_module_hands_a_reader_an_untranslated_literal():
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if any(part in relative for part in ("/migrations/", "/domain/", "/management/")):
                continue
            found += [f"{relative}:{line}" for line in untranslated_calls(path.read_text())]
    assert found == []
