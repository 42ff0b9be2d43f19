"""Every document the code cites is in the repository, at a section that exists.

Code, templates, scripts, tests and the docs point readers to the rules they implement
(``docs/rules.md#tiebreakers``), to a product decision (``docs/decisions.md "Team formation"``,
a row of its table) or to a section of another document. Someone who clones the project must be
able to follow each one, so this test fails on a ``.md`` file the repository does not carry, on an
anchor that is not a heading of that file (GitHub's slugs), on a quoted decision that is not a row
or heading of docs/decisions.md, and on the names of notes that never were part of the repository
(a "rules summary").
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SKIPPED_DIRS = {".venv", ".git", "node_modules", "locale", "migrations", "__pycache__", "var", "media"}
SOURCE_SUFFIXES = {".py", ".html", ".js", ".css", ".md", ".txt", ".toml", ".yaml", ".yml", ".cfg"}
#: A cited Markdown file, with its anchor if any: ``docs/rules.md#byes``, ``decisions.md``.
MD_REFERENCE = re.compile(r"(?<![\w/.-])((?:\.{0,2}/)?[\w./-]*[\w-]+\.md)(?!\w)(?:#([\w-]+))?")
#: A quoted decision: ``docs/decisions.md "Team formation"`` (also ``decisions.md, "Playoffs"``).
DECISION_REFERENCE = re.compile(r"decisions\.md[,)]?\s*\(?\"([^\"]+)\"")
#: Names of documents that live outside the repository.
FOREIGN = re.compile(r"(?i:rules summary|2hg-tournament-rules|shared/rules|\.\./shared)|DECISIONS\.md")


def source_files() -> list[Path]:
    """The repository's own text files, this test excluded (it names what it looks for)."""
    found = []
    for path in REPO.rglob("*"):
        relative = path.relative_to(REPO)
        if SKIPPED_DIRS & set(relative.parts) or path.suffix not in SOURCE_SUFFIXES or not path.is_file():
            continue
        if path != Path(__file__).resolve() and not relative.parts[0].startswith("."):
            found.append(path)
    return sorted(found)


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset[str]:
    headings = re.findall(r"^#{1,6}\s+(.+?)\s*#*$", path.read_text(), re.M)
    return frozenset(slug(heading) for heading in headings)


@cache
def decisions() -> frozenset[str]:
    """The topics docs/decisions.md answers: the first cell of each table row, and its headings,
    also by their title before a colon ("Join codes" for "Join codes: long enough to ...")."""
    text = (REPO / "docs" / "decisions.md").read_text()
    rows = re.findall(r"^\|\s*([^|]+?)\s*\|", text, re.M)
    headings = re.findall(r"^#{1,6}\s+(.+?)\s*$", text, re.M)
    return frozenset(rows) | frozenset(headings) | frozenset(h.split(":")[0] for h in headings)


def resolve(citing: Path, name: str) -> Path | None:
    """The file a reference names: beside the citing file, from the repository root, or in docs/."""
    for base in (citing.parent, REPO, REPO / "docs"):
        candidate = (base / name).resolve()
        if candidate.is_file() and REPO in candidate.parents:
            return candidate
    return None


def problems(path: Path) -> list[str]:
    where = path.relative_to(REPO) if REPO in path.parents else path.name
    found = []
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), start=1):
        for foreign in FOREIGN.findall(line):
            found.append(f"{where}:{number}: cites {foreign!r}, which the repository does not carry")
        for name, anchor in MD_REFERENCE.findall(line):
            if "://" in line.split(name)[0].rsplit(" ", 1)[-1]:
                continue  # a web address, not a file of this repository
            target = resolve(path, name)
            if target is None:
                found.append(f"{where}:{number}: {name} is not in the repository")
            elif anchor and anchor not in anchors(target):
                found.append(f"{where}:{number}: {name} has no section #{anchor}")
        for topic in DECISION_REFERENCE.findall(line):
            if topic not in decisions():
                found.append(f'{where}:{number}: docs/decisions.md has no decision "{topic}"')
        for anchor in re.findall(r"\]\(#([\w-]+)\)", line) if path.suffix == ".md" else ():
            if anchor not in anchors(path):
                found.append(f"{where}:{number}: no section #{anchor} in this file")
    return found


def test_the_rules_reference_is_in_the_repository():
    assert {"tiebreakers", "byes", "disqualification", "late-entry", "unified-deck-construction"} <= anchors(
        REPO / "docs" / "rules.md"
    )


def test_a_missing_anchor_or_document_is_found(tmp_path):
    """The checker itself: each kind of broken citation is reported."""
    bad = tmp_path / "probe.md"
    bad.write_text(
        "See docs/rules.md#no-such-rule, docs/missing.md, the rules summary 6.1, "
        'docs/decisions.md "No such decision" and [here](#nowhere).\n'
    )
    found = problems(bad)

    assert [problem.split(": ", 1)[1] for problem in found] == [
        "cites 'rules summary', which the repository does not carry",
        "docs/rules.md has no section #no-such-rule",
        "docs/missing.md is not in the repository",
        'docs/decisions.md has no decision "No such decision"',
        "no section #nowhere in this file",
    ]


@pytest.mark.parametrize("top", sorted({p.relative_to(REPO).parts[0] for p in source_files()}))
def test_every_cited_document_and_section_exists(top):
    found = [
        problem
        for path in source_files()
        if path.relative_to(REPO).parts[0] == top
        for problem in problems(path)
    ]
    assert found == []
