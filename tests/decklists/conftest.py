"""Shared fixtures for the decklist tests: the shipped card index and the real decklists."""

from __future__ import annotations

from typing import Any

import pytest

from decklists.domain import CardIndex, load_card_index
from tests.decklists.realdata import real_decklists


@pytest.fixture(scope="session")
def index() -> CardIndex:
    return load_card_index()


@pytest.fixture(scope="session")
def records() -> list[dict[str, Any]]:
    return real_decklists()
