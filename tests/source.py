"""Reading the project's own source in tests (import graphs, purity checks)."""

from __future__ import annotations

import ast
import gc
from pathlib import Path


def parse(source: str | Path) -> ast.Module:
    """``ast.parse`` with the garbage collector paused: on CPython 3.11 a finalizer that runs while
    the tree is being built (an earlier test's leftover object refusing database access, say)
    upsets its recursion check ("AST constructor recursion depth mismatch", seen in suite runs)."""
    text, name = (source.read_text(), str(source)) if isinstance(source, Path) else (source, "<unknown>")
    gc.disable()
    try:
        return ast.parse(text, filename=name)
    finally:
        gc.enable()
