"""A refusal is one line in the server log, not a traceback (issue 24, point 6)."""

from __future__ import annotations

import io
import logging
import logging.config
import sys

import pytest
from django.conf import settings
from django.utils.log import configure_logging

from tests.factories import UserFactory
from tests.tournaments.factories import event_with_teams

pytestmark = pytest.mark.django_db


@pytest.fixture
def server_log():
    """The log as the configured console handler writes it (``LOGGING``), captured."""
    logging.config.dictConfig(settings.LOGGING)
    handler = logging.getLogger().handlers[0]
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


def test_a_403_page_is_one_line_in_the_log(client, server_log):
    tournament = event_with_teams(2)
    client.force_login(UserFactory())
    assert client.get(f"/events/{tournament.pk}/manage/").status_code == 403
    assert client.get(f"/events/{tournament.pk + 99}/manage/").status_code == 404
    lines = server_log.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines] == ["Forbidden (Permission denied)", "Not Found"]
    assert "Traceback" not in server_log.getvalue()


def test_a_500_keeps_its_traceback(server_log):
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        logging.getLogger("django.request").error(
            "Internal Server Error: /x/", exc_info=True, extra={"status_code": 500}
        )
    assert "Traceback" in server_log.getvalue() and "RuntimeError: boom" in server_log.getvalue()


@pytest.fixture
def started_log(monkeypatch):
    """The log as the web server process configures it at start-up (Django's defaults, then
    ``LOGGING``), its standard error captured."""
    stream = io.StringIO()
    with monkeypatch.context() as patched:
        patched.setattr(sys, "stderr", stream)
        configure_logging(settings.LOGGING_CONFIG, settings.LOGGING)
    yield stream
    configure_logging(settings.LOGGING_CONFIG, settings.LOGGING)


@pytest.mark.parametrize("debug", [False, True])
def test_a_refusal_is_one_line_under_make_run_s_debug_too(client, started_log, settings, debug):
    """``make run`` on loopback sets DEBUG, under which Django's own console handler on the
    ``django`` logger wrote each refusal again, with its traceback."""
    settings.DEBUG = debug
    tournament = event_with_teams(2)
    client.force_login(UserFactory())
    assert client.get(f"/events/{tournament.pk}/manage/").status_code == 403
    assert client.get(f"/events/{tournament.pk + 99}/manage/").status_code == 404
    logged = started_log.getvalue()
    assert "Traceback" not in logged
    assert [line.split(":")[0] for line in logged.splitlines()] == [
        "Forbidden (Permission denied)",
        "Not Found",
    ]
