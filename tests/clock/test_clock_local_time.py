"""The clock pages show the event's local time and name its time zone."""

from __future__ import annotations

import re

import pytest
import time_machine

from clock.services import round_start, time_extension_grant
from tests.clock.conftest import T0, at

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())).strip()


def test_clock_pages_show_the_events_local_time(client, tournament, round_one, tables, judge):
    tournament.time_zone = "Asia/Tokyo"
    tournament.save(update_fields=["time_zone"])
    round_start(round_row=round_one, actor=judge, at=T0)  # 10:00 UTC is 19:00 in Tokyo
    with time_machine.travel(at(5), tick=False):
        time_extension_grant(match=tables[0], actor=judge, minutes=6, reason="deck check")
    client.force_login(judge)
    with time_machine.travel(at(10), tick=False):
        judge_page = text(client.get(f"/events/{tournament.pk}/clock/judge/"))
        projector = client.get(f"/events/{tournament.pk}/clock/")
    assert "Asia/Tokyo" in judge_page
    assert "19:56" in judge_page  # table 1: 10:50 UTC + 6 minutes, in Tokyo
    assert "10:56" not in judge_page
    assert 'data-time-zone="Asia/Tokyo"' in projector.content.decode()
    assert "19:50" in text(projector)
