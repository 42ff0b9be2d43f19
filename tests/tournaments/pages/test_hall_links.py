"""Issue 28: the links phones open name the site's public address (``PUBLIC_URL``), not the host
the desk's browser used: the projectors' QR code and the team invite link."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from django.urls import reverse
from weasyprint import HTML

from tests.factories import UserFactory
from tests.tournaments.factories import event_with_teams
from tests.tournaments.pages.builders import client_for
from tournaments.models import Team
from tournaments.services.rounds import round_pair, round_publish

pytestmark = pytest.mark.django_db

HALL = "http://10.213.0.1:8123"


def decode_svg_qr(svg: str, pdftoppm: str, tmp_path) -> list[str]:
    """What a phone's reader gets from the page's QR code: the SVG drawn (WeasyPrint, then
    pdftoppm at 150 dpi) and decoded by zbarimg."""
    zbarimg = shutil.which("zbarimg")
    assert zbarimg, "zbarimg (Debian zbar-tools) is needed: scripts/system-packages.sh installs it"
    HTML(string=f"<div style='width:6cm'>{svg}</div>").write_pdf(tmp_path / "qr.pdf")
    subprocess.run(
        [pdftoppm, "-png", "-r", "150", str(tmp_path / "qr.pdf"), str(tmp_path / "qr")], check=True
    )
    found = subprocess.run(
        [zbarimg, "--quiet", "--raw", *map(str, sorted(tmp_path.glob("qr*.png")))],
        capture_output=True,
        text=True,
    )
    return found.stdout.split()


@pytest.mark.parametrize("page", ["tournament-pairings-projector", "clock-projector"])
def test_the_projectors_show_the_event_page_at_the_public_address_with_a_qr_code(
    page, client, event, organizer, settings, pdftoppm, tmp_path
):
    settings.PUBLIC_URL = HALL
    round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
    response = client.get(reverse(page, args=[event.id]), HTTP_HOST="localhost")
    assert response.status_code == 200
    event_url = f"{HALL}/events/{event.id}/"
    assert f'<a href="{event_url}" dir="ltr">{event_url}</a>' in response.text
    svg = re.search(r'<span class="hall-link-qr">(<svg.*?</svg>)</span>', response.text, re.S).group(1)
    assert decode_svg_qr(svg, pdftoppm, tmp_path) == [event_url]
    assert client.get(event_url.removeprefix(HALL)).status_code == 200


def test_the_invite_link_names_the_public_address_whatever_host_the_captain_used(settings):
    settings.PUBLIC_URL = HALL
    tournament = event_with_teams(0)
    captain = client_for(UserFactory())
    captain.post(
        reverse("tournament-me-team", args=[tournament.pk]),
        {"team_name": "Dual Wield", "player_name": "Ana Cap", "wizards_id": "ana@wotc.example"},
    )
    page = captain.get(reverse("tournament-me", args=[tournament.pk]), HTTP_HOST="localhost").content.decode()
    link = re.search(r'<a href="([^"]+)" id="invite-link">', page).group(1)
    team = Team.objects.get(tournament=tournament)
    assert link == f"{HALL}/join/{team.join_code}/"
    assert "http://localhost" not in page


def test_a_projector_stored_under_one_address_is_not_served_under_another(client, event, organizer, settings):
    """A laptop restarted on the hall's network keeps its page cache and the event's generation."""
    round_publish(round_row=round_pair(tournament=event, actor=organizer), actor=organizer)
    projector = reverse("tournament-pairings-projector", args=[event.id])
    settings.PUBLIC_URL = "http://127.0.0.1:8123"
    assert "http://127.0.0.1:8123/events/" in client.get(projector).text
    assert "http://127.0.0.1:8123/events/" in client.get(projector).text  # the stored page
    settings.PUBLIC_URL = HALL
    page = client.get(projector).text
    assert f"{HALL}/events/{event.id}/" in page
    assert "127.0.0.1:8123" not in page
