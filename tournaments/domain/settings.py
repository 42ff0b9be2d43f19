"""An event's settings, listed once: their names, which are fixed once round 1 is paired, and
their checks. The services, the API, the settings page and the export read these lists;
``EventSettings`` (the engine's view) runs the same tiebreaker check.

The value sets of the choice settings are in ``tournaments.domain.choices``.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from tournaments.domain.choices import Format, Language, Rel, Tiebreaker
from tournaments.domain.day_two import day_two_problems

#: Every setting the organizer chooses, in the order the settings page shows them.
SETTINGS: tuple[str, ...] = (
    "name",
    "date",
    "venue",
    "language",
    "time_zone",
    "format",
    "rel",
    "team_size",
    "games_per_match",
    "round_minutes",
    "swiss_rounds",
    "top_cut",
    "day_two",
    "day_two_tiebreakers",
    "tiebreakers",
    "percentage_floor",
    "penalty_policy",
    "udc_mode",
    "late_entry_missed_rounds",
    "late_entry_open",
    "check_in_required",
    "playoff_play_draw",
    "booster_draft_playoff",
    "cross_pod_pairing",
    "player_reporting",
    "decklist_deadline",
    "decklists_published",
)

#: Fixed once round 1 is paired (MTR 10.2: the number of Swiss rounds and the cut are announced
#: before round 1; the format, team size, match length and tiebreakers shape every pairing).
FIXED_ONCE_PAIRED = frozenset(
    {"format", "team_size", "games_per_match", "swiss_rounds", "top_cut", "tiebreakers"}
)

#: Settings whose empty value (None) means something: no date, from the MTR chart, no deadline.
NULLABLE = frozenset({"date", "swiss_rounds", "top_cut", "day_two", "decklist_deadline"})

#: The settings checked together by ``settings_problems``.
CHECKED = (
    "team_size",
    "games_per_match",
    "round_minutes",
    "tiebreakers",
    "swiss_rounds",
    "top_cut",
    "day_two",
    "format",
    "rel",
    "booster_draft_playoff",
    "cross_pod_pairing",
    "language",
    "time_zone",
)

MIN_ROUND_MINUTES = 40
DEFAULT_ROUND_MINUTES = 50
MAX_TEAM_SIZE = 4
TOP_CUTS = (0, 2, 4, 8)


#: Messages are written ``_("... %(name)s ...") % {...}``: the adapter passes Django's ``gettext`` as
#: ``translate`` (the request's language), the core itself stays English and Django-free.
Translate = Callable[[str], str]


def _english(message: str) -> str:
    return message


def tiebreaker_problems(tiebreakers: Sequence[str], translate: Translate = _english) -> list[str]:
    """What is wrong with a tiebreaker list: unknown names, not starting with match points, a repeat."""
    _ = translate
    known = set(Tiebreaker.values)
    problems = []
    unknown = [name for name in tiebreakers if name not in known]
    if unknown:
        problems.append(
            _("unknown tiebreaker(s) %(unknown)s; use %(known)s")
            % {"unknown": unknown, "known": sorted(known)}
        )
    if not tiebreakers or tiebreakers[0] != Tiebreaker.MATCH_POINTS:
        problems.append(_("the first tiebreaker is always match_points"))
    if len(set(tiebreakers)) != len(tiebreakers):
        problems.append(_("a tiebreaker is listed twice"))
    return problems


@cache
def _time_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def time_zone_choices() -> list[str]:
    """Every IANA time zone name, sorted, as the settings page offers them."""
    return sorted(_time_zones())


def time_zone_problem(name: str, translate: Translate = _english) -> str | None:
    """Why ``name`` is not an IANA time zone the event can use (``Asia/Tokyo``), or ``None``."""
    _ = translate
    if name not in _time_zones():
        return _("unknown time zone %(name)s; use an IANA name such as Europe/Paris or Asia/Tokyo") % {
            "name": repr(name)
        }
    return None


def settings_problems(values: Mapping[str, Any], translate: Translate = _english) -> list[dict[str, str]]:
    """Each problem with the ``CHECKED`` settings in ``values``, as ``{"field", "message"}``."""
    _ = translate
    problems = []
    team_size = values.get("team_size", 2)
    if not 1 <= team_size <= MAX_TEAM_SIZE:
        problems.append(
            {
                "field": "team_size",
                "message": _("must be 1 to %(max)s, got %(value)s")
                % {"max": MAX_TEAM_SIZE, "value": team_size},
            }
        )
    games = values.get("games_per_match")
    if games is not None and games not in (1, 3, 5):
        problems.append(
            {"field": "games_per_match", "message": _("must be 1, 3 or 5, got %(value)s") % {"value": games}}
        )
    if games is not None and team_size > 1 and games != 1:
        problems.append({"field": "games_per_match", "message": _("a team match is one game (MTR 9.1)")})
    minutes = values.get("round_minutes", DEFAULT_ROUND_MINUTES)
    if minutes < MIN_ROUND_MINUTES:
        problems.append(
            {
                "field": "round_minutes",
                "message": _("at least %(minutes)s minutes (MTR App. B)") % {"minutes": MIN_ROUND_MINUTES},
            }
        )
    tiebreakers = values.get("tiebreakers")
    if tiebreakers:
        problems += [
            {"field": "tiebreakers", "message": message}
            for message in tiebreaker_problems(tiebreakers, translate)
        ]
    if values.get("cross_pod_pairing") and values.get("rel", Rel.REGULAR) != Rel.REGULAR:
        problems.append(
            {"field": "cross_pod_pairing", "message": _("only at Regular REL (MTR 7.6: pods at Competitive)")}
        )
    if values.get("booster_draft_playoff") and values.get("format", Format.MODERN) not in Format.limited():
        problems.append(
            {"field": "booster_draft_playoff", "message": _("a Booster Draft playoff is for Limited events")}
        )
    language = values.get("language")
    if language is not None and language not in Language.values:
        problems.append(
            {
                "field": "language",
                "message": _("must be one of %(codes)s") % {"codes": ", ".join(Language.values)},
            }
        )
    time_zone = values.get("time_zone")
    if time_zone is not None and (problem := time_zone_problem(time_zone, translate)):
        problems.append({"field": "time_zone", "message": problem})
    problems += [
        {"field": "day_two", "message": message}
        for message in day_two_problems(values.get("day_two"), values.get("swiss_rounds"), translate)
    ]
    top_cut = values.get("top_cut")
    if top_cut is not None and top_cut not in TOP_CUTS:
        problems.append(
            {"field": "top_cut", "message": _("must be 0, 2, 4 or 8, got %(value)s") % {"value": top_cut}}
        )
    return problems
