"""The staff section of the event's settings page: add by username or e-mail, change role, remove, audited."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tournaments.enums import StaffRole
from tournaments.models import AuditEntry, Staff

pytestmark = pytest.mark.django_db


def test_settings_page_has_the_staff_add_form(organizer_client, event):
    response = organizer_client.get(reverse("tournament-settings", args=[event.id]))

    assert response.status_code == 200
    assert "data-staff-add" in response.text
    assert 'name="username"' in response.text
    assert '<option value="head_judge">Head judge</option>' in response.text


def test_organizer_adds_a_judge_by_email_changes_the_role_and_removes_them(organizer_client, event):
    judge = UserFactory(username="jules", email="Jules@Example.org")
    add = reverse("tournament-staff-add", args=[event.id])

    added = organizer_client.post(add, {"username": "jules@example.org", "role": "judge"})
    staff = Staff.objects.get(tournament=event, user=judge)
    changed = organizer_client.post(add, {"username": "jules", "role": "head_judge"})
    staff.refresh_from_db()
    role_after_change = staff.role
    removed = organizer_client.post(reverse("tournament-staff-remove", args=[event.id, staff.id]))

    assert (added.status_code, changed.status_code, removed.status_code) == (302, 302, 302)
    assert role_after_change == StaffRole.HEAD_JUDGE
    assert not Staff.objects.filter(tournament=event, user=judge).exists()
    actions = list(
        AuditEntry.objects.filter(tournament=event, action__startswith="staff_")
        .order_by("id")
        .values_list("action", "before", "after")
    )
    assert actions == [
        ("staff_add", None, {"username": "jules", "role": "judge"}),
        (
            "staff_role_change",
            {"username": "jules", "role": "judge"},
            {"username": "jules", "role": "head_judge"},
        ),
        ("staff_remove", {"username": "jules", "role": "head_judge"}, None),
    ]


def test_unknown_account_is_a_400_on_the_field(organizer_client, event):
    response = organizer_client.post(
        reverse("tournament-staff-add", args=[event.id]), {"username": "nobody", "role": "judge"}
    )

    assert response.status_code == 400
    assert response.context["staff_form"].errors["username"] == [
        "no account with this username or e-mail: ask them to sign up first"
    ]


def test_the_organizer_cannot_be_removed(organizer_client, organizer, event):
    staff = Staff.objects.get(tournament=event, user=organizer)

    response = organizer_client.post(reverse("tournament-staff-remove", args=[event.id, staff.id]))

    assert response.status_code == 409
    assert Staff.objects.filter(pk=staff.pk).exists()


def test_only_the_organizer_manages_staff(judge_client, event):
    newcomer = UserFactory(username="newcomer")

    response = judge_client.post(
        reverse("tournament-staff-add", args=[event.id]), {"username": newcomer.username, "role": "judge"}
    )

    assert response.status_code == 403
    assert not Staff.objects.filter(user=newcomer).exists()
