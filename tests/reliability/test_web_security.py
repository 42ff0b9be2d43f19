"""Web security: CSRF on every form, no secrets in the repository.

Covered elsewhere, not repeated here: the log-in and sign-up limits
(``tests/accounts/test_login_throttle.py``), password validation on sign-up
(``tests/accounts/test_auth_api.py::test_signup_refuses_invalid_fields_naming_them`` and
``::test_signup_page_shows_password_problem``), and ``check --deploy`` clean with production
settings plus secure cookies and HSTS outside DEBUG (``tests/common/test_deploy_check.py``).
"""

from __future__ import annotations

import re
import subprocess
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import DEFAULT_PASSWORD, UserFactory

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def login_user(db):
    return UserFactory(username=f"limit-{uuid.uuid4().hex[:12]}")


POST_FORM = re.compile(
    r"<form\b([^>]*\bmethod=[\"']?post[\"']?[^>]*)>(.*?)</form>", re.IGNORECASE | re.DOTALL
)


def test_every_post_form_in_the_templates_carries_a_csrf_token():
    forms = []
    for template in sorted((ROOT / "templates").rglob("*.html")):
        for found in POST_FORM.finditer(template.read_text()):
            forms.append((template.relative_to(ROOT).as_posix(), found.start(), *found.groups()))

    # The language switcher alone goes without: its view is exempt (common.views.language_set says
    # why) and a token in it would make the stored public pages set a cookie.
    exempt = [(name, offset) for name, offset, tag, _body in forms if "{% url 'set_language' %}" in tag]
    missing = [
        f"{name} at offset {offset}"
        for name, offset, _tag, body in forms
        if "{% csrf_token %}" not in body and (name, offset) not in exempt
    ]

    assert len(forms) >= 15, "the form pattern no longer finds the templates' forms"
    assert [name for name, _offset in exempt] == ["templates/base.html"]
    assert missing == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url_name", "logged_in"),
    [("login", False), ("signup", False), ("tournament-create", True), ("logout", True)],
)
def test_a_form_post_without_the_csrf_token_is_refused(url_name, logged_in, login_user):
    client = Client(enforce_csrf_checks=True)
    if logged_in:
        client.force_login(login_user)

    response = client.post(reverse(url_name), {"username": login_user.username, "password": "x"})

    assert response.status_code == 403
    assert b"CSRF" in response.content


@pytest.mark.django_db
def test_the_same_post_with_the_token_from_the_page_goes_through(login_user):
    client = Client(enforce_csrf_checks=True)
    page = client.get(reverse("login"))
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.content).group(1).decode()

    response = client.post(
        reverse("login"),
        {"username": login_user.username, "password": DEFAULT_PASSWORD, "csrfmiddlewaretoken": token},
    )

    assert response.status_code == 302


#: What a leaked credential looks like; each pattern is written so it does not match itself.
SECRET_PATTERNS = {
    "private key": re.compile(r"-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----"),
    "AWS access key id": re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    "AWS secret access key": re.compile(r"aws_secret_access_key\s*[=:]\s*['\"]?[A-Za-z0-9/+=]{40}", re.I),
    "GitHub token": re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36}\b"),
    "Slack token": re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
}
#: ``SECRET_KEY = "…"`` in code and shell, ``SECRET_KEY=…`` in env files. A value computed when it
#: runs (``$(…)`` in shell) is not stored. Only values of 32 characters or more count: production
#: wants 50 (``check --deploy``, security.W009), so anything much shorter is a test's placeholder
#: (``"x" * 60``, ``"cold-start-test-" + …``), not a key someone could have deployed.
PY_SECRET_KEY = re.compile(r"SECRET_KEY\s*=\s*(['\"])([^$'\"]{32,})\1")
ENV_SECRET_KEY = re.compile(r"SECRET_KEY=([A-Za-z0-9][^\s`,'\"$<\\]{31,})")
#: The documented key that is not a secret: the embedded mode's development key (README: never
#: for a real event; settings refuse it outside embedded mode and DEBUG).
KNOWN_NOT_SECRET = {settings.DEV_SECRET_KEY}


def _tracked_text_files() -> list[Path]:
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.split(
        b"\0"
    )
    files = []
    for name in filter(None, names):
        path = ROOT / name.decode()
        if not path.is_file():
            continue
        head = path.read_bytes()[:8192]
        if b"\0" in head:
            continue
        files.append(path)
    return files


def test_no_secrets_are_tracked_in_the_repository():
    files = _tracked_text_files()
    found = []
    for path in files:
        text = path.read_text(errors="replace")
        name = path.relative_to(ROOT).as_posix()
        found += [f"{name}: {what}" for what, pattern in SECRET_PATTERNS.items() if pattern.search(text)]
        for match in PY_SECRET_KEY.finditer(text):
            if match.group(2) not in KNOWN_NOT_SECRET:
                found.append(f"{name}: SECRET_KEY literal {match.group(2)[:8]}…")
        for match in ENV_SECRET_KEY.finditer(text):
            if match.group(1) not in KNOWN_NOT_SECRET:
                found.append(f"{name}: SECRET_KEY value {match.group(1)[:8]}…")

    assert len(files) > 100, "git ls-files found too few files to be this repository"
    assert found == []
    tracked = {path.relative_to(ROOT).as_posix() for path in files}
    assert not {".env", "config/.env"} & tracked, "an .env file is tracked; only .env.example belongs"
