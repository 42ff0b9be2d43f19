"""Issue 28: a laptop that starts serving at another address (another port, or the hall's network
instead of loopback) prints the slips of the rounds in play again, so their QR codes open an
address phones reach; a start at the same address prints nothing."""

from __future__ import annotations

import pytest
from django.utils import timezone

from documents.enums import DocumentKind
from documents.models import DocumentJob
from documents.tasks import reprint_slips_for_a_new_address
from tests.documents.conftest import wait_for
from tests.documents.test_slip_qr import decoded_codes

pytestmark = pytest.mark.django_db


@pytest.fixture
def embedded(settings, tmp_path):
    """A laptop's settings. Its worker renders with the laptop's own PUBLIC_URL, so the slips render
    in this process (eager) even in CI's service run, whose live worker has a PUBLIC_URL of its own."""
    from config.celery import app

    settings.EMBEDDED_WORKER = True
    settings.CELERY_DATA_DIR = tmp_path / "celery"
    settings.CELERY_DATA_DIR.mkdir()
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield settings
    app.conf.task_always_eager = eager


def slips(event) -> list[DocumentJob]:
    return list(DocumentJob.objects.filter(round=event.round, kind=DocumentKind.RESULT_SLIPS).order_by("pk"))


def test_slips_are_printed_again_for_a_new_address_and_not_for_the_same(
    event, embedded, pdftoppm, tmp_path, django_capture_on_commit_callbacks
):
    before = len(slips(event))
    embedded.PUBLIC_URL = "http://10.213.0.1:8123"
    with django_capture_on_commit_callbacks(execute=True):
        reprint_slips_for_a_new_address()
    jobs = slips(event)
    assert len(jobs) == before + 1
    newest = wait_for(jobs[-1])
    assert newest.status == "done"
    pdf = tmp_path / "slips.pdf"
    with newest.file.open("rb") as handle:
        pdf.write_bytes(handle.read())
    codes = decoded_codes(pdf, pdftoppm, tmp_path)
    assert codes and all(code.startswith("http://10.213.0.1:8123/slip/") for code in codes)
    assert (embedded.CELERY_DATA_DIR / "public-url").read_text().strip() == "http://10.213.0.1:8123"

    reprint_slips_for_a_new_address()
    assert len(slips(event)) == before + 1


def test_a_finished_round_is_not_printed_again(event, embedded):
    event.round.finished_at = timezone.now()
    event.round.save(update_fields=["finished_at"])
    before = DocumentJob.objects.count()
    embedded.PUBLIC_URL = "http://10.213.0.1:8123"
    reprint_slips_for_a_new_address()
    assert DocumentJob.objects.count() == before


def test_production_never_prints_again_on_start(event, settings):
    settings.EMBEDDED_WORKER = False
    before = DocumentJob.objects.count()
    reprint_slips_for_a_new_address()
    assert DocumentJob.objects.count() == before
