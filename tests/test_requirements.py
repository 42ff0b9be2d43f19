"""The requirements files are pip-tools lock files: every package pinned with its hashes.

requirements.txt (runtime, the Docker image) and requirements-dev.txt (tests and tools) are
compiled from requirements*.in; a hand edit that adds an unpinned or unhashed line, or a test-only
package in the runtime lock, fails here before it fails an install.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\]+)")
TEST_ONLY = {"pytest", "pytest-django", "hypothesis", "factory-boy", "pypdf", "time-machine", "playwright"}


def _locked(name: str) -> dict[str, tuple[str, int]]:
    """Each requirement of the lock file as name -> (version, number of hashes)."""
    text = (REPO / name).read_text()
    locked: dict[str, tuple[str, int]] = {}
    for block in re.split(r"\n(?=\S)", text):
        if block.startswith("#") or not block.strip():
            continue
        match = PIN.match(block)
        assert match, f"{name}: not a pinned requirement: {block.splitlines()[0]!r}"
        package = match.group(1).lower().replace("_", "-")
        locked[package] = (match.group(2), block.count("--hash=sha256:"))
    return locked


def _direct(name: str) -> set[str]:
    """The packages a .in file asks for by name."""
    names = set()
    for line in (REPO / name).read_text().splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            names.add(re.split(r"[=<>\[ ]", line)[0].lower().replace("_", "-"))
    return names


@pytest.mark.parametrize("lock", ["requirements.txt", "requirements-dev.txt"])
def test_every_locked_package_is_pinned_with_hashes(lock: str) -> None:
    unhashed = [package for package, (_, hashes) in _locked(lock).items() if hashes == 0]
    assert unhashed == []


@pytest.mark.parametrize(
    ("source", "lock"),
    [("requirements.in", "requirements.txt"), ("requirements-dev.in", "requirements-dev.txt")],
)
def test_the_lock_holds_every_package_its_source_asks_for(source: str, lock: str) -> None:
    assert _direct(source) - set(_locked(lock)) == set()


def test_the_dev_lock_keeps_the_runtime_versions() -> None:
    runtime, dev = _locked("requirements.txt"), _locked("requirements-dev.txt")
    assert {p: v for p, (v, _) in runtime.items() if dev[p][0] != v} == {}


def test_test_only_packages_stay_out_of_the_runtime_lock() -> None:
    assert TEST_ONLY & set(_locked("requirements.txt")) == set()
    assert TEST_ONLY <= set(_locked("requirements-dev.txt"))


def test_weasyprints_dependencies_we_import_are_pinned_directly() -> None:
    """documents/textfit.py imports fontTools and documents/geometry.py tinycss2 themselves, so
    their versions are ours to choose."""
    assert {"fonttools", "tinycss2"} <= _direct("requirements.in")
