"""A Disqualification needs the head judge (MTR 1.5, IPG 4), however it is reached.

A floor judge's USC-Cheating through the penalty API used to disqualify the team at once (201, team
out) while the same judge's ``teams/{id}/disqualify/`` was a 403. Now the judge's Disqualification
is a proposal with no effect; the head judge confirms it (then it takes effect) or changes it.
"""

from __future__ import annotations

import pytest
from django.test import Client

from penalties.models import Penalty
from tournaments.enums import ResultKind
from tournaments.models import AuditEntry, Match, Team

pytestmark = pytest.mark.django_db


def cheating(table, client_for, user):
    return client_for(user).post(
        f"/api/v1/tournaments/{table.tournament.pk}/penalties/",
        {"player": table.b1.pk, "round": 1, "infraction": "USC-C", "description": "lied about a card"},
        format="json",
    )


def review(table, client_for, user, penalty_id: int, **body):
    return client_for(user).post(f"/api/v1/penalties/{penalty_id}/review/", body, format="json")


def team_b(table) -> Team:
    return Team.objects.get(pk=table.match.team_b_id)


def test_a_floor_judges_disqualification_is_a_proposal_with_no_effect(table, client_for):
    response = cheating(table, client_for, table.judge)

    assert (response.status_code, response.json()["penalty"], response.json()["review"]) == (
        201,
        "disqualification",
        "pending",
    )
    assert (team_b(table).disqualified, team_b(table).dropped_after_round) == (False, None)
    assert Match.objects.get(pk=table.match.pk).result_kind == ResultKind.PENDING
    assert list(Penalty.objects.in_force()) == []


def test_the_head_judges_disqualification_takes_effect_at_once(table, client_for):
    response = cheating(table, client_for, table.head_judge)

    assert (response.status_code, response.json()["review"]) == (201, "")
    assert (team_b(table).disqualified, team_b(table).dropped_after_round) == (True, 1)
    assert Match.objects.get(pk=table.match.pk).result_kind == ResultKind.MATCH_LOSS


def test_the_head_judge_confirms_a_proposal_and_then_it_takes_effect(table, client_for):
    proposal = cheating(table, client_for, table.judge).json()["id"]

    refused = review(table, client_for, table.judge, proposal, decision="confirm", reason="saw it")
    confirmed = review(table, client_for, table.head_judge, proposal, decision="confirm", reason="confirmed")
    again = review(table, client_for, table.head_judge, proposal, decision="confirm", reason="twice")

    assert (refused.status_code, confirmed.status_code, again.status_code) == (403, 200, 409)
    assert confirmed.json()["review"] == "confirmed"
    assert (team_b(table).disqualified, team_b(table).dropped_after_round) == (True, 1)
    assert Match.objects.get(pk=table.match.pk).result_kind == ResultKind.MATCH_LOSS
    entry = AuditEntry.objects.get(action="penalty_disqualification_confirm")
    assert (entry.actor, entry.before["review"], entry.after["review"], entry.reason) == (
        table.head_judge,
        "pending",
        "confirmed",
        "confirmed",
    )


def test_the_head_judge_changes_a_proposal_into_a_match_loss(table, client_for):
    proposal = cheating(table, client_for, table.judge).json()["id"]

    missing = review(
        table, client_for, table.head_judge, proposal, decision="change", reason="not intentional"
    )
    changed = review(
        table,
        client_for,
        table.head_judge,
        proposal,
        decision="change",
        penalty="match_loss",
        reason="not intentional",
    )

    assert (missing.status_code, [e["field"] for e in missing.json()["errors"]]) == (400, ["penalty"])
    assert changed.status_code == 200
    replacement = Penalty.objects.get(pk=changed.json()["id"])
    original = Penalty.objects.get(pk=proposal)
    assert (original.review, original.replaced_by_id, original.reviewed_by) == (
        "changed",
        replacement.pk,
        table.head_judge,
    )
    assert (replacement.penalty, replacement.deviated, replacement.review) == ("match_loss", True, "")
    assert list(Penalty.objects.in_force()) == [replacement]
    assert team_b(table).disqualified is False
    assert Match.objects.get(pk=table.match.pk).result_kind == ResultKind.MATCH_LOSS
    assert (
        AuditEntry.objects.filter(action="penalty_disqualification_change", actor=table.head_judge).count()
        == 1
    )


def test_a_proposal_cannot_be_overturned_only_decided(table, client_for):
    proposal = cheating(table, client_for, table.judge).json()["id"]

    response = client_for(table.head_judge).post(
        f"/api/v1/penalties/{proposal}/overturn/", {"reason": "appeal"}, format="json"
    )

    assert response.status_code == 409


def test_the_head_judge_confirms_on_the_penalty_page_without_javascript(table, client_for):
    proposal = cheating(table, client_for, table.judge).json()["id"]
    judge, head_judge = Client(), Client()
    judge.force_login(table.judge)
    head_judge.force_login(table.head_judge)
    page = f"/events/{table.tournament.pk}/penalties/"

    judge_view = judge.get(page).content.decode()
    head_judge_view = head_judge.get(page).content.decode()
    posted = head_judge.post(
        f"/events/{table.tournament.pk}/penalties/{proposal}/review/",
        {"decision": "confirm", "reason": "confirmed at the table", "next": page},
    )

    assert "no effect until the head judge confirms it" in judge_view
    assert f'data-penalty-id="{proposal}"' not in judge_view
    assert f'data-penalty-id="{proposal}"' in head_judge_view
    assert (posted.status_code, posted["Location"]) == (302, page)
    assert team_b(table).disqualified is True
    assert "confirmed by" in head_judge.get(page).content.decode()
