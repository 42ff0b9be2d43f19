"""The organizer's page per event: who may see it, and that each button calls its service."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.enums import StaffRole
from tournaments.models import AuditEntry, Player, Round, Team
from tournaments.services.results import match_result_report
from tournaments.standings import standings_for

pytestmark = pytest.mark.django_db


def manage_url(event):
    return reverse("tournament-manage", args=[event.id])


def test_manage_page_sends_anonymous_users_to_log_in(client, event):
    response = client.get(manage_url(event))

    assert response.status_code == 302
    assert response.url == f"/accounts/login/?next=/events/{event.id}/manage/"


def test_manage_page_is_forbidden_to_users_outside_the_staff(outsider_client, event):
    assert outsider_client.get(manage_url(event)).status_code == 403


def test_judge_sees_the_page_without_write_buttons(judge_client, event):
    response = judge_client.get(manage_url(event))

    assert response.status_code == 200
    assert "you are judge" in response.text
    assert 'id="pair-round"' not in response.text
    assert 'id="team-add"' not in response.text


def test_judge_cannot_pair(judge_client, event):
    response = judge_client.post(reverse("tournament-round-pair", args=[event.id]))

    assert response.status_code == 403
    assert not Round.objects.filter(tournament=event).exists()


@pytest.mark.parametrize("role", [StaffRole.SCOREKEEPER, StaffRole.HEAD_JUDGE])
def test_scorekeeping_staff_get_the_write_buttons(staff_client, event, role):
    response = staff_client(role).get(manage_url(event))

    assert response.status_code == 200
    assert "Pair round 1</button>" in response.text
    assert 'id="team-add"' in response.text


def test_add_team_form_has_one_row_per_team_member(organizer_client, event):
    response = organizer_client.get(manage_url(event))

    assert response.text.count("<legend>Player ") == 2
    assert 'name="player_1_wizards_id"' in response.text
    assert 'name="player_2_name"' not in response.text


def test_add_team_registers_the_players_in_order(organizer_client, event):
    response = organizer_client.post(
        reverse("tournament-team-add", args=[event.id]),
        {
            "name": "Late Arrivals",
            "player_0_name": "Quinn Adams",
            "player_0_wizards_id": "quinn@example.org",
            "player_1_name": "Rosa Diaz",
            "player_1_wizards_id": "rosa@example.org",
        },
    )

    assert response.status_code == 302
    assert response.url == manage_url(event)
    team = Team.objects.get(tournament=event, name="Late Arrivals")
    assert [(p.name, p.wizards_id, p.position) for p in team.players.all()] == [
        ("Quinn Adams", "quinn@example.org", 0),
        ("Rosa Diaz", "rosa@example.org", 1),
    ]


def test_add_team_refused_by_the_service_shows_the_message_on_the_field(organizer_client, event):
    response = organizer_client.post(
        reverse("tournament-team-add", args=[event.id]),
        {
            "name": "Copycats",
            "player_0_name": "Alex Again",
            "player_0_wizards_id": "alex.moreau@example.org",
            "player_1_name": "Someone New",
            "player_1_wizards_id": "new@example.org",
        },
    )

    assert response.status_code == 400
    assert response.context["team_form"].errors["player_0_wizards_id"] == [
        "alex.moreau@example.org is already on a team in this event"
    ]
    assert not Team.objects.filter(tournament=event, name="Copycats").exists()


def test_add_team_with_missing_fields_is_a_400(organizer_client, event):
    response = organizer_client.post(reverse("tournament-team-add", args=[event.id]), {"name": "Half"})

    assert response.status_code == 400
    assert "The team was not registered: see the form." in response.text
    assert set(response.context["team_form"].errors) == {
        "player_0_name",
        "player_0_wizards_id",
        "player_1_name",
        "player_1_wizards_id",
    }


def test_drop_needs_a_reason(organizer_client, event):
    team = Team.objects.get(tournament=event, name="Team Turn")

    response = organizer_client.post(
        reverse("tournament-team-drop", args=[event.id, team.id]), {"reason": ""}
    )

    assert response.status_code == 400
    assert "Give a reason to drop a team." in response.text
    team.refresh_from_db()
    assert team.is_active


def test_drop_with_reason_drops_the_team(organizer_client, event):
    team = Team.objects.get(tournament=event, name="Team Turn")

    response = organizer_client.post(
        reverse("tournament-team-drop", args=[event.id, team.id]),
        {"reason": "Went home sick", "confirm": "yes"},
    )

    assert response.status_code == 302
    team.refresh_from_db()
    assert not team.is_active
    assert team.drop_reason == "Went home sick"


def test_pair_then_publish(organizer_client, event):
    response = organizer_client.post(reverse("tournament-round-pair", args=[event.id]))

    assert response.status_code == 302
    paired = Round.objects.get(tournament=event, number=1)
    page = organizer_client.get(manage_url(event))
    assert "Round 1 is paired but not published: players cannot see it yet." in page.text
    assert "How round 1 was paired" in page.text
    assert paired.explanation["lines"][0] in page.text
    bye_team = Team.objects.get(pk=paired.explanation["bye_team"])
    assert f"Bye: team {bye_team.name} (0 points)" in page.text
    assert 'id="results-grid"' not in page.text

    response = organizer_client.post(reverse("tournament-round-publish", args=[event.id, paired.id]))

    assert response.status_code == 302
    paired.refresh_from_db()
    assert paired.published_at is not None
    page = organizer_client.get(manage_url(event))
    assert "0 of 3 reported" in page.text
    assert page.text.count("Not yet reported") == 3
    # Round 2 cannot be paired before every result of round 1 is in: no button says it can.
    assert "Pair round 2" not in page.text
    assert 'id="build-cut"' not in page.text
    assert "Round 1 of 3" in page.text


def test_pairing_again_before_results_are_in_shows_the_service_message(
    organizer_client, event, published_round
):
    response = organizer_client.post(reverse("tournament-round-pair", args=[event.id]))

    assert response.status_code == 409
    assert response.context["error"].startswith("round 1 still has unconfirmed results at table(s) ")
    assert Round.objects.filter(tournament=event).count() == 1


def test_delete_round_without_results_allows_repair(organizer_client, event, paired_round):
    response = organizer_client.post(reverse("tournament-round-delete", args=[event.id, paired_round.id]))

    assert response.status_code == 302
    assert not Round.objects.filter(tournament=event).exists()


def test_delete_round_with_results_is_refused_and_not_offered(
    organizer_client, organizer, event, published_round
):
    match = published_round.matches.exclude(table=None).order_by("table").first()
    match_result_report(
        match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
    )

    page = organizer_client.get(manage_url(event))
    response = organizer_client.post(reverse("tournament-round-delete", args=[event.id, published_round.id]))

    assert 'id="delete-round"' not in page.text
    assert response.status_code == 409
    assert f"round 1 has results at table(s) [{match.table}]; it cannot be re-paired" in response.text
    assert Round.objects.filter(tournament=event).count() == 1


def test_results_grid_rows_carry_version_and_status(organizer_client, organizer, event, published_round):
    match = published_round.matches.exclude(table=None).order_by("table").first()
    match_result_report(
        match=match, actor=organizer, team_a_wins=0, team_b_wins=0, draws=3, version=match.version
    )

    response = organizer_client.get(manage_url(event))

    rows = response.context["grid"]["rows"]
    assert [row["match"].table for row in rows] == [1, 2, 3]
    assert rows[0]["status"] == "Reported by orga, confirmed"
    assert rows[1]["status"] == "Not yet reported"
    assert f'data-match-id="{match.id}"' in response.text
    assert '<input type="hidden" name="version" value="2">' in response.text
    assert rows[0]["choice"] == "id"
    assert "1 of 3 reported" in response.text


def test_not_yet_reported_filter_hides_reported_rows_without_js(
    organizer_client, organizer, event, published_round
):
    match = published_round.matches.exclude(table=None).order_by("table").first()
    match_result_report(
        match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
    )

    response = organizer_client.get(manage_url(event), {"pending": "1"})

    assert response.text.count('data-reported="1" method="post"') == 1
    assert response.text.count('hx-swap="outerHTML" hidden>') == 1
    assert response.text.count('hx-swap="outerHTML">') == 2


def test_build_cut_refused_is_shown(organizer_client, event):
    response = organizer_client.post(reverse("tournament-cut-build", args=[event.id]))

    assert response.status_code == 409
    assert response.context["error"] == "0 of 3 Swiss rounds played; the cut comes after the last one"
    assert not Round.objects.filter(tournament=event).exists()


def test_audit_log_is_staff_only_and_newest_first(
    organizer_client, outsider_client, client, event, paired_round
):
    url = reverse("tournament-audit", args=[event.id])

    assert client.get(url).status_code == 302
    assert outsider_client.get(url).status_code == 403
    response = organizer_client.get(url)

    assert response.status_code == 200
    actions = [entry.action for entry in response.context["entries"]]
    assert actions[0] == "round_pair"
    assert actions[-1] == "tournament_create"
    assert actions == list(
        AuditEntry.objects.filter(tournament=event)
        .order_by("-created_at", "-id")
        .values_list("action", flat=True)
    )
    assert "orga" in response.text


def test_a_login_staff_type_is_linked_once_its_player_accepts(organizer_client, event, outsider_client):
    organizer_client.post(
        reverse("tournament-team-add", args=[event.id]),
        {
            "name": "Linked",
            "player_0_name": "Out Sider",
            "player_0_wizards_id": "outsider@example.org",
            "player_0_username": "outsider",
            "player_1_name": "Second Person",
            "player_1_wizards_id": "second@example.org",
        },
    )

    player = Player.objects.get(wizards_id="outsider@example.org")
    assert player.user is None and player.team.players.count() == 2  # seated, not yet linked
    outsider_client.post(reverse("team-join", args=[player.team.join_code]), {"answer": "accept"})
    player.refresh_from_db()
    assert player.user.username == "outsider"


def _first_table(round_obj):
    return round_obj.matches.exclude(table=None).order_by("table").first()


def test_result_form_posts_to_a_page_url_and_changes_the_standings(organizer_client, event, published_round):
    match = _first_table(published_round)
    page = organizer_client.get(manage_url(event))
    action = reverse("tournament-match-result", args=[event.id, match.id])
    assert f'data-match-id="{match.id}" data-reported="0" method="post" action="{action}"' in page.text
    assert "/api/v1/" not in page.text

    response = organizer_client.post(action, {"result": "b", "version": match.version})

    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.team_a_wins, match.team_b_wins, match.draws, match.confirmed) == (0, 1, 0, True)
    page = organizer_client.get(manage_url(event))
    assert f"Table {match.table}: Saved 0-1-0." in page.text
    assert "1 of 3 reported" in page.text
    points = {row.team_id: row.match_points for row in standings_for(event, through_round=1)}
    assert (points[match.team_a_id], points[match.team_b_id]) == (0, 3)


def test_result_form_refuses_a_stale_version_with_the_current_result(
    organizer_client, organizer, event, published_round
):
    match = _first_table(published_round)
    stale = match.version
    match_result_report(match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=stale)

    response = organizer_client.post(
        reverse("tournament-match-result", args=[event.id, match.id]), {"result": "draw", "version": stale}
    )

    assert response.status_code == 409
    assert "Someone else changed this result: it is now 1-0-0." in response.text
    match.refresh_from_db()
    assert (match.team_a_wins, match.draws) == (1, 0)


def test_changing_a_confirmed_result_asks_for_a_reason_in_words(
    organizer_client, organizer, event, published_round
):
    match = _first_table(published_round)
    match = match_result_report(
        match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
    )
    url = reverse("tournament-match-result", args=[event.id, match.id])

    refused = organizer_client.post(url, {"result": "b", "version": match.version})
    changed = organizer_client.post(url, {"result": "b", "version": match.version, "reason": "slip misread"})

    assert refused.status_code == 400
    assert "give a reason to change it" in refused.text
    assert "reason:" not in refused.text
    assert changed.status_code == 302
    assert AuditEntry.objects.filter(action="match_result_correct", reason="slip misread").exists()


def test_a_change_refused_for_want_of_a_reason_keeps_the_chosen_result_in_the_row(
    organizer_client, organizer, event, published_round
):
    """The Key box: on a confirmed table, "2" then Enter asks for the reason; the row keeps "2" and
    the right team's win selected, so typing the reason and saving saves the change."""
    match = _first_table(published_round)
    match = match_result_report(
        match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
    )
    url = reverse("tournament-match-result", args=[event.id, match.id])
    for headers in ({"HX-Request": "true"}, {}):
        refused = organizer_client.post(url, {"result": "b", "version": match.version}, headers=headers)
        assert refused.status_code == 400
        row = refused.text[refused.text.index(f'id="result-{match.id}"') :]
        row = row[: row.index("</form>")]
        assert '<option value="b" selected>' in row and '<option value="a" selected>' not in row
        assert 'value="2"' in row and 'name="reason"' in row

    changed = organizer_client.post(
        url,
        {"result": "b", "version": match.version, "reason": "slip misread"},
        headers={"HX-Request": "true"},
    )
    assert changed.status_code == 200 and "Saved 0-1-0" in changed.text


def test_htmx_result_answers_the_row_and_the_counter(organizer_client, event, published_round):
    match = _first_table(published_round)

    response = organizer_client.post(
        reverse("tournament-match-result", args=[event.id, match.id]),
        {"result": "a", "version": match.version},
        headers={"HX-Request": "true"},
    )

    assert response.status_code == 200
    assert response.text.lstrip().startswith("{#") is False
    assert f'data-match-id="{match.id}" data-reported="1"' in response.text
    assert "Saved 1-0-0" in response.text
    assert 'id="results-count" aria-live="polite" hx-swap-oob="true">1 of 3 reported' in response.text


def test_judge_cannot_post_a_result(judge_client, event, published_round):
    match = _first_table(published_round)

    response = judge_client.post(
        reverse("tournament-match-result", args=[event.id, match.id]),
        {"result": "a", "version": match.version},
    )

    assert response.status_code == 403
    assert "for its organizer, head judge, scorekeeper; you are its judge." in response.text


def test_pair_button_offered_once_every_result_is_in_and_the_prepublish_check_shows_points(
    organizer_client, organizer, event, published_round
):
    for match in published_round.matches.exclude(table=None):
        match_result_report(
            match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
        )
    page = organizer_client.get(manage_url(event))
    assert "Pair round 2</button>" in page.text
    assert 'id="delete-round"' not in page.text

    organizer_client.post(reverse("tournament-round-pair", args=[event.id]))
    page = organizer_client.get(manage_url(event))

    assert "Round 2 of 3" in page.text
    shown = {
        side.team.name: side.match_points
        for row in page.context["pairing_rows"]
        for side in (row.side_a, row.side_b)
        if side
    }
    winners = {m.team_a.name for m in published_round.matches.select_related("team_a")}
    assert all(shown[name] == 3 for name in winners)
    assert sorted(shown.values()) == [0, 0, 0, 3, 3, 3, 3]


def test_drop_asks_for_confirmation_then_can_be_undone_until_the_next_round(
    organizer_client, organizer, event, published_round
):
    team = Team.objects.get(tournament=event, name="Team Turn")
    url = reverse("tournament-team-drop", args=[event.id, team.id])

    asked = organizer_client.post(url, {"reason": "went home"})
    team.refresh_from_db()
    assert asked.status_code == 200 and team.dropped_after_round is None
    assert "is not paired from round 2 on" in asked.text
    organizer_client.post(url, {"reason": "went home", "confirm": "yes"})
    team.refresh_from_db()
    assert team.dropped_after_round == 1
    page = organizer_client.get(manage_url(event))
    assert f'data-undo-drop="{team.id}"' in page.text

    undone = organizer_client.post(reverse("tournament-team-undrop", args=[event.id, team.id]))

    team.refresh_from_db()
    assert undone.status_code == 302
    assert (team.dropped_after_round, team.drop_reason) == (None, "")
    assert AuditEntry.objects.filter(action="team_drop_undo", object_id=str(team.id)).exists()


def test_a_drop_cannot_be_undone_once_the_next_round_is_paired(
    organizer_client, organizer, event, published_round
):
    from tournaments.services.participation import team_drop
    from tournaments.services.rounds import round_pair

    team = Team.objects.get(tournament=event, name="Team Turn")
    team_drop(team=team, actor=organizer, reason="went home")
    for match in published_round.matches.exclude(table=None):
        match_result_report(
            match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
        )
    round_pair(tournament=event, actor=organizer)

    page = organizer_client.get(manage_url(event))
    response = organizer_client.post(reverse("tournament-team-undrop", args=[event.id, team.id]))

    assert f'data-undo-drop="{team.id}"' not in page.text
    assert response.status_code == 409
    assert "can no longer be undone" in response.context["error"]


def test_an_account_staff_link_to_a_registered_player_is_linked_when_it_accepts(
    organizer_client, event, outsider_client
):
    player = Player.objects.get(tournament=event, name="Jade Wu")

    response = organizer_client.post(
        reverse("tournament-player-link", args=[event.id, player.team_id]),
        {"player": player.id, "username": "outsider"},
    )

    player.refresh_from_db()
    assert response.status_code == 302
    assert player.user is None  # asked, not linked: the account's player confirms first
    invitation = player.account_invitations.get()
    assert invitation.invitee.username == "outsider"
    me = outsider_client.get(reverse("tournament-me", args=[event.id]))
    assert f'data-invitation="{invitation.team.join_code}"' in me.text and "Jade Wu" in me.text

    accepted = outsider_client.post(
        reverse("team-join", args=[invitation.team.join_code]), {"answer": "accept"}
    )

    player.refresh_from_db()
    assert accepted.status_code == 302 and player.user.username == "outsider"
    assert AuditEntry.objects.filter(action="player_account_link").exists()


def test_audit_log_reads_as_sentences_with_round_numbers_not_ids(
    organizer_client, organizer, event, published_round
):
    match = _first_table(published_round)
    match = match_result_report(
        match=match, actor=organizer, team_a_wins=1, team_b_wins=0, draws=0, version=match.version
    )
    match_result_report(
        match=match,
        actor=organizer,
        team_a_wins=0,
        team_b_wins=1,
        draws=0,
        version=match.version,
        reason="slip misread",
    )

    page = organizer_client.get(reverse("tournament-audit", args=[event.id]))

    sentences = [line.sentence for line in page.context["lines"]]
    assert "Round 1 paired by orga" in sentences
    assert "Round 1 published by orga" in sentences
    correction = next(line for line in page.context["lines"] if line.entry.action == "match_result_correct")
    assert correction.sentence.startswith(f"Result of table {match.table}, round 1 corrected by orga")
    assert correction.changes == ["left team's games: 1 → 0", "right team's games: 0 → 1"]
    assert "{&#x27;" not in page.text and ">round_pair" not in page.text


def test_edit_a_team_before_round_one_without_a_reason(organizer_client, event):
    team = Team.objects.get(tournament=event, name="Team Turn")
    first, second = team.players.order_by("position")
    url = reverse("tournament-team-edit", args=[event.id, team.id])
    assert f'data-team-edit="{team.id}"' in organizer_client.get(url).text

    response = organizer_client.post(
        url,
        {
            "name": "Team Turn Again",
            f"player_{first.id}_name": "Ivan Petrov",
            f"player_{first.id}_wizards_id": "ivan.p@example.org",
            f"player_{second.id}_name": "Jade  Wu",
            f"player_{second.id}_wizards_id": second.wizards_id,
            "fixed_table": "7",
        },
    )

    team.refresh_from_db()
    first.refresh_from_db()
    second.refresh_from_db()
    assert response.status_code == 302
    assert (team.name, team.fixed_table, first.wizards_id, second.name) == (
        "Team Turn Again",
        7,
        "ivan.p@example.org",
        "Jade Wu",
    )


def test_editing_a_team_after_round_one_needs_a_reason(organizer_client, event, paired_round):
    team = Team.objects.get(tournament=event, name="Team Turn")
    players = list(team.players.order_by("position"))
    url = reverse("tournament-team-edit", args=[event.id, team.id])
    data = {"name": "Renamed", "fixed_table": ""}
    for player in players:
        data[f"player_{player.id}_name"] = player.name
        data[f"player_{player.id}_wizards_id"] = player.wizards_id

    refused = organizer_client.post(url, data)
    changed = organizer_client.post(url, {**data, "reason": "name misspelt on the sheet"})

    assert refused.status_code == 400
    assert "reason: round 1 is paired: say why the team changes" in refused.text
    assert changed.status_code == 302
    entry = AuditEntry.objects.get(action="team_update")
    assert (entry.before["name"], entry.after["name"], entry.reason) == (
        "Team Turn",
        "Renamed",
        "name misspelt on the sheet",
    )


def test_organizer_seats_a_draft_in_pods_with_the_form_and_sees_them(organizer_client, event):
    event.format = "draft"
    event.save()
    page = organizer_client.get(manage_url(event))
    assert 'id="seat-pods"' in page.text
    assert "No draft seated yet." in page.text

    response = organizer_client.post(reverse("tournament-pods-seat", args=[event.id]), {"draft": "1"})

    assert response.status_code == 302
    page = organizer_client.get(manage_url(event))
    assert "Draft pods: draft 1" in page.text
    assert "Pod 1</strong>" in page.text
    assert "Seat draft 2 in pods" in page.text
    assert AuditEntry.objects.filter(action="pods_seat").count() == 1


def test_pods_form_is_refused_outside_a_draft_with_the_reason(organizer_client, event):
    assert 'id="seat-pods"' not in organizer_client.get(manage_url(event)).text

    response = organizer_client.post(reverse("tournament-pods-seat", args=[event.id]), {"draft": "1"})

    assert response.status_code == 409
    assert "pods are for Booster Draft events" in response.text


def test_add_team_with_an_awarded_bye(organizer_client, event):
    form = {
        "name": "Bye Holders",
        "awarded_byes": "2",
        "player_0_name": "Uma Stone",
        "player_0_wizards_id": "uma@example.org",
        "player_1_name": "Vic Reyes",
        "player_1_wizards_id": "vic@example.org",
    }
    response = organizer_client.post(reverse("tournament-team-add", args=[event.id]), form)

    assert response.status_code == 302
    assert Team.objects.get(tournament=event, name="Bye Holders").awarded_byes == 2
    page = organizer_client.get(manage_url(event)).text
    assert 'name="awarded_byes"' in page
    assert '>Bye Holders</a> <span class="muted">(2-round awarded bye)</span>' in page

    refused = organizer_client.post(
        reverse("tournament-team-add", args=[event.id]), form | {"name": "Too Many", "awarded_byes": "4"}
    )
    assert refused.status_code == 400
    assert refused.context["team_form"].errors["awarded_byes"]
    assert not Team.objects.filter(tournament=event, name="Too Many").exists()
