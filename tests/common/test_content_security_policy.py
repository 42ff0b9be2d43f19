"""Content-Security-Policy: scripts only from the site's own files, never inline; pages still work."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.management import call_command

from tournaments.management.commands.setup_demo import DEMO_PASSWORD, DEMO_USERNAME

ROOT = Path(__file__).resolve().parents[2]
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
EVENT_ATTRIBUTE = re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE)
JAVASCRIPT_URL = re.compile(r"""(href|src|action)\s*=\s*["']?\s*javascript:""", re.IGNORECASE)


def _page_templates() -> list[Path]:
    """Every template a browser gets (the PDF templates go to WeasyPrint, which runs no script)."""
    return [
        path for path in (ROOT / "templates").rglob("*.html") if "pdf" not in path.relative_to(ROOT).parts
    ]


def test_no_template_has_an_inline_script_an_on_attribute_or_a_javascript_url():
    found = [
        f"{path.relative_to(ROOT)}: {pattern.search(text).group(0)[:60]}"
        for path in _page_templates()
        for text in [path.read_text()]
        for pattern in (INLINE_SCRIPT, EVENT_ATTRIBUTE, JAVASCRIPT_URL)
        if pattern.search(text)
    ]

    assert len(_page_templates()) > 20
    assert found == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/", "/accounts/login/", "/api/v1/tournaments/", "/admin/login/", "/api/docs/"]
)
def test_every_answer_carries_the_policy(client, path):
    policy = client.get(path)["Content-Security-Policy"]

    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["script-src"] == "'self'"
    assert directives["default-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_pages_scripts_run_under_the_policy_in_chromium(live_server, page):
    """Every page with a script, as the demo organizer: the script did its work, and Chromium
    reported no policy violation and no script error."""
    call_command("setup_demo")
    from tournaments.models import Tournament

    event = Tournament.objects.get().pk
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"{m.text} {m.location}") if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", DEMO_USERNAME)
    page.fill("#id_password", DEMO_PASSWORD)
    page.click("button[type=submit]")

    page.goto(f"{live_server.url}/events/{event}/")
    page.fill("#pairing-search", "zzzz-nobody")
    page.wait_for_selector("#pairings-empty", state="visible")

    page.goto(f"{live_server.url}/events/{event}/penalties/new/")
    assert page.locator("#round-show").is_hidden()  # penalties.js ran and took over the Show button

    page.goto(f"{live_server.url}/events/{event}/clock/")
    page.wait_for_function("document.querySelector('[class*=\"is-\"]') !== null")

    page.goto(f"{live_server.url}/events/{event}/manage/")
    page.goto(f"{live_server.url}/events/{event}/print/")
    page.goto(f"{live_server.url}/events/{event}/decklists/judge/")
    page.goto(f"{live_server.url}/admin/login/")

    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector("#swagger-ui .info", timeout=20_000)

    assert [problem for problem in problems if "favicon.ico" not in problem] == []
