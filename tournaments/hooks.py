"""Inputs the apps built on tournaments give it, so that tournaments never imports them.

The audit log names some values other apps store (a penalty's "game_loss" as 「ゲームの敗北」): the
app registers how (``register_audit_value_label``).

Standings count match-point adjustments, which the penalties app owns (a Match Loss turned into a
one match point penalty, docs/rules.md#game-loss-in-2hg). The penalties app registers its reader here when Django
starts (penalties/apps.py); the standings selector passes the sum of what the registered readers
give to the engine as an input. With none registered there are no adjustments.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping

MatchPointAdjustments = Callable[[int], Mapping[int, int]]
"""Tournament id → {team id: match points added (negative for a penalty)}, teams with 0 left out."""

_adjustment_sources: list[MatchPointAdjustments] = []


def register_match_point_adjustments(source: MatchPointAdjustments) -> None:
    """Count ``source``'s adjustments in every standings (registering it twice counts it once)."""
    if source not in _adjustment_sources:
        _adjustment_sources.append(source)


def match_point_adjustments(tournament_id: int) -> dict[int, int]:
    """The adjustments of every registered source, summed per team; teams at 0 are absent."""
    total: dict[int, int] = defaultdict(int)
    for source in _adjustment_sources:
        for team_id, points in source(tournament_id).items():
            total[team_id] += points
    return {team_id: points for team_id, points in total.items() if points}


TeamsWithoutLists = Callable[[int], Iterable[int]]
"""Tournament id → ids of the active teams a player of which has no registered decklist."""

_list_sources: list[TeamsWithoutLists] = []


def register_teams_without_lists(source: TeamsWithoutLists) -> None:
    """The decklists app tells which teams have no list (decklists/apps.py), for the warning
    before pairing a Competitive or Professional round; with none registered no team is named."""
    if source not in _list_sources:
        _list_sources.append(source)


def teams_without_lists(tournament_id: int) -> set[int]:
    return {team_id for source in _list_sources for team_id in source(tournament_id)}


AuditValueLabel = Callable[[str], str | None]
"""A stored value (``"game_loss"``) → its name in the active language, ``None`` if not one of its values."""

_audit_value_labels: dict[str, AuditValueLabel] = {}


def register_audit_value_label(key: str, label: AuditValueLabel) -> None:
    """How the audit log names the values of ``key`` its app stores (the penalties app: penalty names)."""
    _audit_value_labels[key] = label


def audit_value_label(key: str, value: object) -> str | None:
    """The registered name of ``value`` under ``key``; ``None`` (shown as stored) if none is registered."""
    label = _audit_value_labels.get(key)
    return label(value) if label is not None and isinstance(value, str) else None
