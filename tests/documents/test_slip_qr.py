"""Issue 15: each result slip carries a QR code an ordinary reader decodes to its table's report
page (with the match's slip secret), and the page it opens reports that match."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from django.test import Client

from common.pdf import Underlay, render_pdf, render_pdf_chunks
from documents.builders import FORM_TEMPLATES, PAGE_DRAWINGS, TEMPLATES
from documents.enums import DocumentKind
from documents.models import DocumentJob
from documents.services import document_render
from documents.slips import result_slips
from tests.documents.conftest import pages_text, pdf_of
from tournaments.models import Match
from tournaments.services.rounds import round_publish
from tournaments.slips import slip_code, slip_url

pytestmark = pytest.mark.django_db


def decoded_codes(pdf: Path, pdftoppm: str, tmp_path: Path) -> list[str]:
    """Every QR code zbarimg finds on the PDF's pages rendered at 150 dpi."""
    zbarimg = shutil.which("zbarimg")
    assert zbarimg, "zbarimg (Debian zbar-tools) is needed: scripts/system-packages.sh installs it"
    subprocess.run([pdftoppm, "-png", "-r", "150", str(pdf), str(tmp_path / "slips")], check=True)
    pngs = sorted(tmp_path.glob("slips*.png"))
    shutil.copy(pngs[0], f"/tmp/result-slips-qr-{pdf.stem}.png")
    found = subprocess.run(
        [zbarimg, "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", *map(str, pngs)],
        capture_output=True,
        text=True,
        check=False,
    )
    return found.stdout.split()


def test_every_slip_qr_decodes_to_its_matchs_report_page(event, pdftoppm, tmp_path, settings):
    job = DocumentJob.objects.get(round=event.round, kind=DocumentKind.RESULT_SLIPS)
    document_render(job_id=job.id)
    job.refresh_from_db()
    assert job.status == "done"
    pdf = tmp_path / "slips.pdf"
    with job.file.open("rb") as handle:
        pdf.write_bytes(handle.read())
    matches = list(
        Match.objects.filter(round=event.round, team_b__isnull=False).select_related("round__tournament")
    )

    codes = decoded_codes(pdf, pdftoppm, tmp_path)

    assert sorted(codes) == sorted(slip_url(match) for match in matches)
    text = " ".join(pages_text(pdf_of(job)))
    assert all(slip_code(match) in text for match in matches)

    round_publish(round_row=event.round, actor=event.organizer)
    match = matches[0]
    page = Client().get(codes[codes.index(slip_url(match))].removeprefix(settings.PUBLIC_URL))
    assert page.status_code == 200
    assert f'data-report-match-id="{match.id}"' in page.text


def test_a_wrong_secret_opens_nothing(event):
    round_publish(round_row=event.round, actor=event.organizer)
    match = Match.objects.filter(round=event.round, team_b__isnull=False).first()
    assert Client().get(f"/slip/{match.pk}/0000000000000000/").status_code == 404


def test_letter_slips_carry_their_smaller_codes_inside_the_slip(event, pdftoppm, tmp_path):
    job = DocumentJob.objects.create(
        kind=DocumentKind.RESULT_SLIPS, tournament=event.tournament, round=event.round, paper="letter"
    )
    document_render(job_id=job.id)
    job.refresh_from_db()
    pdf = tmp_path / "letter.pdf"
    with job.file.open("rb") as handle:
        pdf.write_bytes(handle.read())
    matches = Match.objects.filter(round=event.round, team_b__isnull=False).select_related(
        "round__tournament"
    )
    assert sorted(decoded_codes(pdf, pdftoppm, tmp_path)) == sorted(slip_url(match) for match in matches)


def test_chunk_renderers_draw_the_codes_of_their_own_pages_in_parallel(event, pdftoppm, tmp_path):
    """Each forked chunk renderer works out the QR codes of its pages (``Underlay.draw``), so a
    long round's codes are made in parallel with the layout; every code lands on its own slip."""
    context = result_slips(event.tournament, event.round, "A4")
    chunks = [{**context, "pages": [page]} for page in context["pages"]]
    assert len(chunks) >= 2
    kind = DocumentKind.RESULT_SLIPS
    underlay = Underlay(
        render_pdf(FORM_TEMPLATES[kind], context), context["underlay"], draw=PAGE_DRAWINGS[kind]
    )

    pdf = tmp_path / "chunks.pdf"
    pdf.write_bytes(render_pdf_chunks(TEMPLATES[kind], chunks, processes=2, underlay=underlay))

    slips = [slip for page in context["pages"] for slip in page["slips"]]
    assert sorted(decoded_codes(pdf, pdftoppm, tmp_path)) == sorted(slip["url"] for slip in slips)
