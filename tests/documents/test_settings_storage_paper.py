"""Where PDFs are stored and on which paper automatic documents print come from the environment;
a malformed or missing value stops start-up naming the variable (as ``tests/common/test_settings_env``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from documents.services import documents_for_round_paired

ROOT = Path(__file__).resolve().parents[2]
VARIABLES = (
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "MEDIA_STORAGE",
    "DOCUMENTS_PAPER",
)
PROBE = (
    "import json, django; django.setup(); from django.conf import settings; "
    "from django.core.files.storage import storages; s = storages['default']; "
    "print(json.dumps({'storage': settings.STORAGES['default'], 'class': type(s).__name__, "
    "'bucket': getattr(s, 'bucket_name', None), 'paper': settings.DOCUMENTS_DEFAULT_PAPER}))"
)


def start_django(**env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in VARIABLES and not k.startswith(("S3_", "AWS_"))}
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_defaults_are_local_media_and_a4():
    result = start_django()

    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {
        "storage": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "class": "FileSystemStorage",
        "bucket": None,
        "paper": "A4",
    }


def test_s3_storage_is_configured_from_the_environment(tmp_path):
    secret = tmp_path / "s3_secret"
    secret.write_text("s3cr3t-from-a-file\n")

    result = start_django(
        MEDIA_STORAGE="S3",
        S3_BUCKET="twohg-media",
        S3_ENDPOINT_URL="https://minio.example.org:9000",
        S3_REGION="eu-central-1",
        S3_ACCESS_KEY_ID="AKIAEXAMPLE",
        S3_SECRET_ACCESS_KEY_FILE=str(secret),
        DOCUMENTS_PAPER="Letter",
    )

    assert result.returncode == 0, result.stderr
    probe = json.loads(result.stdout)
    assert probe["storage"] == {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": "twohg-media",
            "endpoint_url": "https://minio.example.org:9000",
            "region_name": "eu-central-1",
            "access_key": "AKIAEXAMPLE",
            "secret_key": "s3cr3t-from-a-file",
            "default_acl": None,
            "querystring_auth": True,
            "file_overwrite": True,
        },
    }
    assert (probe["class"], probe["bucket"], probe["paper"]) == ("S3Storage", "twohg-media", "letter")


@pytest.mark.parametrize(
    ("env", "variable"),
    [
        ({"MEDIA_STORAGE": "s3"}, "S3_BUCKET"),
        ({"MEDIA_STORAGE": "ftp"}, "MEDIA_STORAGE"),
        ({"MEDIA_STORAGE": "s3", "S3_BUCKET": "b", "S3_ENDPOINT_URL": "minio:9000"}, "S3_ENDPOINT_URL"),
        ({"MEDIA_STORAGE": "s3", "S3_BUCKET": "b", "S3_ACCESS_KEY_ID": "AKIA"}, "S3_SECRET_ACCESS_KEY"),
        ({"DOCUMENTS_PAPER": "A3"}, "DOCUMENTS_PAPER"),
    ],
)
def test_missing_or_malformed_value_fails_at_start_up_naming_the_variable(env, variable):
    result = start_django(**env)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert f"{variable}:" in result.stderr


@pytest.mark.django_db
def test_automatic_documents_use_the_configured_paper(settings, django_capture_on_commit_callbacks):
    from tests.documents.conftest import build_event

    with django_capture_on_commit_callbacks(execute=False):
        event = build_event(team_count=4)
        settings.DOCUMENTS_DEFAULT_PAPER = "letter"
        jobs = documents_for_round_paired(round_id=event.round.pk)

    assert [job.paper for job in jobs] == ["letter", "letter", "letter"]
